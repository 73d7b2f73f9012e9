//! Issue 15: `--audio FILE.wav`, the program flags' sound. The WAV is read back by a parser
//! of our own (not `hound`) and its pitch measured by a DFT and by counting crossings, both
//! written here independently of the emulator's mixer.

mod common;
use common::*;
use std::path::Path;

const STF2: u32 = 0o760012;
const CLF2: u32 = 0o760002;
const NOP: u32 = 0o760000;

/// A mono 16-bit PCM file: (sample rate, samples).
fn read_wav(path: &Path) -> (u32, Vec<i16>) {
    let b = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(&b[0..4], b"RIFF");
    assert_eq!(&b[8..12], b"WAVE");
    let u16_at = |i: usize| u16::from_le_bytes([b[i], b[i + 1]]);
    let u32_at = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
    let mut i = 12;
    let mut rate = None;
    while i + 8 <= b.len() {
        let id = &b[i..i + 4];
        let len = u32_at(i + 4) as usize;
        let body = i + 8;
        if id == b"fmt " {
            assert_eq!(u16_at(body), 1, "PCM");
            assert_eq!(u16_at(body + 2), 1, "mono");
            assert_eq!(u16_at(body + 14), 16, "16-bit");
            rate = Some(u32_at(body + 4));
        } else if id == b"data" {
            let s = b[body..body + len]
                .chunks_exact(2)
                .map(|c| i16::from_le_bytes([c[0], c[1]]))
                .collect();
            return (rate.expect("fmt before data"), s);
        }
        i = body + len + (len & 1);
    }
    panic!("no data chunk in {}", path.display());
}

/// The frequency (Hz) of the strongest DFT bin between `lo` and `hi`, in `step` Hz steps
/// (the mean removed first). Each bin's power by Goertzel's recurrence.
fn spectral_peak(rate: u32, s: &[i16], lo: f64, hi: f64, step: f64) -> f64 {
    let mean = s.iter().map(|&v| f64::from(v)).sum::<f64>() / s.len() as f64;
    let x: Vec<f64> = s.iter().map(|&v| f64::from(v) - mean).collect();
    let mut best = (0.0, lo);
    let mut f = lo;
    while f <= hi {
        let w = 2.0 * std::f64::consts::PI * f / f64::from(rate);
        let c = 2.0 * w.cos();
        let (mut s1, mut s2) = (0.0, 0.0);
        for v in &x {
            let s0 = v + c * s1 - s2;
            s2 = s1;
            s1 = s0;
        }
        let p = s1 * s1 + s2 * s2 - c * s1 * s2;
        if p > best.0 {
            best = (p, f);
        }
        f += step;
    }
    best.1
}

/// Frequency from the number of upward crossings of the mean.
fn crossing_frequency(rate: u32, s: &[i16]) -> f64 {
    let mean = s.iter().map(|&v| f64::from(v)).sum::<f64>() / s.len() as f64;
    let ups: Vec<usize> = (1..s.len())
        .filter(|&i| f64::from(s[i - 1]) < mean && f64::from(s[i]) >= mean)
        .collect();
    assert!(ups.len() >= 2, "no oscillation");
    let span = (ups[ups.len() - 1] - ups[0]) as f64 / f64::from(rate);
    (ups.len() - 1) as f64 / span
}

/// Flag 2 toggled every `n` instructions of 5 µs: `stf 2`, n−1 `nop`s, `clf 2`, n−2 `nop`s,
/// `jmp 100`, a square wave of 1 / (2·n·5 µs). (READ IN takes 2.5 ms a line, 18 lines for
/// each word: the program starts after about 2·n·15 ms.)
fn square(n: u32) -> Vec<(u32, u32)> {
    let mut w = vec![(0o100, STF2)];
    let mut a = 0o101;
    for _ in 0..n - 1 {
        w.push((a, NOP));
        a += 1;
    }
    w.push((a, CLF2));
    a += 1;
    for _ in 0..n - 2 {
        w.push((a, NOP));
        a += 1;
    }
    w.push((a, jmp(0o100)));
    w
}

#[test]
fn a_flag_toggled_at_a_known_rate_sounds_at_that_pitch() {
    let d = scratch("audio-square");
    let t = tape(&d, "sq.rim", &square(57), 0o100);
    let wav = d.join("sq.wav");
    let r = pdp1(&[
        "--headless",
        &t,
        "--max-seconds",
        "3",
        "--audio",
        wav.to_str().unwrap(),
    ]);
    assert!(r.ok(), "{}", r.stderr);
    let (rate, s) = read_wav(&wav);
    assert_eq!(rate, 48_000);
    // One sample per 1/48000 s of the run's emulated time: the run is three seconds.
    assert_eq!(s.len(), 3 * 48_000);
    // Silence during READ IN (about 1.8 s), then the tone: look at the last second.
    assert!(s[..48_000].iter().all(|&v| v == 0), "READ IN is silent");
    let s = &s[2 * 48_000..];
    let expect = 1e6 / (2.0 * 57.0 * 5.0); // 1754.4 Hz
    let peak = spectral_peak(rate, s, 100.0, 5000.0, 2.0);
    assert!(
        (peak - expect).abs() / expect < 0.01,
        "DFT peak {peak} Hz, expected {expect}"
    );
    let zc = crossing_frequency(rate, s);
    assert!(
        (zc - expect).abs() / expect < 0.01,
        "crossings give {zc} Hz, expected {expect}"
    );
    // A flag not among the sounding ones is silent.
    let wav2 = d.join("pf5.wav");
    let r = pdp1(&[
        "--headless",
        &t,
        "--max-seconds",
        "2.1",
        "--sound-flags",
        "5,6",
        "--audio",
        wav2.to_str().unwrap(),
    ]);
    assert!(r.ok(), "{}", r.stderr);
    let (_, s) = read_wav(&wav2);
    assert_eq!(s.len(), 2 * 48_000 + 4_800);
    assert!(s.iter().all(|&v| v == 0), "flag 2 is not sounding");
}

#[test]
fn a_silent_program_writes_silence_as_long_as_it_ran() {
    let d = scratch("audio-silent");
    // stf 6 (a flag that does not sound), then count forever.
    let t = tape(
        &d,
        "quiet.rim",
        &[(0o100, 0o760016), (0o101, idx(0o200)), (0o102, jmp(0o101))],
        0o100,
    );
    let wav = d.join("quiet.wav");
    let r = pdp1(&[
        "--headless",
        &t,
        "--max-seconds",
        "0.75",
        "--audio",
        wav.to_str().unwrap(),
    ]);
    assert!(r.ok(), "{}", r.stderr);
    let (rate, s) = read_wav(&wav);
    assert_eq!(
        s.len() as u64,
        750_000_000 * u64::from(rate) / 1_000_000_000
    );
    assert!(s.iter().all(|&v| v == 0));
}

#[test]
fn a_restored_run_sounds_from_its_own_start() {
    // A second run from a saved state: its WAV covers its own emulated time only.
    let d = scratch("audio-state");
    let t = tape(&d, "sq.rim", &square(40), 0o100);
    let st = d.join("s.ron");
    let r = pdp1(&[
        "--headless",
        &t,
        "--max-seconds",
        "1.5",
        "--save-state",
        st.to_str().unwrap(),
        "--registers",
    ]);
    assert!(r.ok(), "{}", r.stderr);
    let wav = d.join("b.wav");
    let r = pdp1(&[
        "--headless",
        "--load-state",
        st.to_str().unwrap(),
        "--max-seconds",
        "0.5",
        "--audio",
        wav.to_str().unwrap(),
    ]);
    assert!(r.ok(), "{}", r.stderr);
    let (rate, s) = read_wav(&wav);
    assert_eq!(s.len(), 24_000, "half a second");
    let expect = 1e6 / (2.0 * 40.0 * 5.0); // 2500 Hz
    let zc = crossing_frequency(rate, &s);
    assert!((zc - expect).abs() / expect < 0.01, "{zc} Hz");
}

/// The notes of a one-flag recording: runs of at least `min` square-wave cycles of nearly the
/// same period (found from the rising edges), each refined by the DFT peak over the run, as
/// (start in seconds, Hz).
fn notes(s: &[i16], min: usize) -> Vec<(f64, f64)> {
    let ups: Vec<usize> = (1..s.len())
        .filter(|&i| s[i - 1] <= 0 && s[i] > 0)
        .collect();
    let mut out = Vec::new();
    let mut run_start = 0;
    for k in 1..=ups.len() {
        let same = k < ups.len() && k >= 2 && {
            let (p0, p1) = (ups[k - 1] - ups[k - 2], ups[k] - ups[k - 1]);
            p1 < 2_000 && (p1 as f64 - p0 as f64).abs() / (p0 as f64) < 0.08
        };
        if !same && k < ups.len() && k - run_start < 2 {
            continue;
        }
        if !same {
            if k - run_start > min {
                let (a, b) = (ups[run_start], ups[k - 1]);
                let rough = (k - 1 - run_start) as f64 * 48_000.0 / (b - a) as f64;
                let f = spectral_peak(48_000, &s[a..b], rough * 0.9, rough * 1.1, 0.1);
                out.push((a as f64 / 48_000.0, f));
            }
            run_start = k;
        }
    }
    out
}

/// The music player (pdp1m13.rim) and Bach's trio sonata I, operated as the tapes README
/// says, in one run with `examples/scripts/music.pdp1` (issue 15): READ IN (halts at 730);
/// mount the voices, SS1 up, START 4 — four times, one voice each; SS1 down, CONTINUE: it
/// compiles, then plays to the last note and halts. The pitches are checked against equal
/// temperament at A = 440 Hz to within 1 %, each voice by its own offset (issue 27, below):
/// flag 2 opens on E4 (329.63 Hz) and reaches A4 (440 Hz; the README's 439.6 Hz) about three
/// seconds in; flag 3 opens on E3 (164.81 Hz) and reaches C♯3 (138.59 Hz; the README has
/// 139.4 Hz, we measure 138.0 Hz) about 2.4 s in. The first notes of each voice are printed
/// (`cargo test -p pdp1 --test headless_audio music -- --nocapture`).
#[test]
fn the_music_player_plays_bach_from_read_in_to_the_last_note_in_one_run() {
    let (Some(player), Some(_voices)) = (
        shared_tape("pdp1m13.rim"),
        shared_tape("trioSonataI_intermediate.bin"),
    ) else {
        return;
    };
    let tapes = Path::new(&player).parent().unwrap().to_path_buf();
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../examples/scripts/music.pdp1"
    );
    let d = scratch("audio-music");
    let play = |flags: &str| -> Vec<i16> {
        let wav = d.join(format!("play-{flags}.wav"));
        let r = pdp1_in(
            &[
                "--headless",
                "--script",
                script,
                "--sound-flags",
                flags,
                "--audio",
                wav.to_str().unwrap(),
                "--registers",
                "-v",
            ],
            Some(&tapes),
        );
        assert!(r.ok(), "play: {}", r.stderr);
        // The player halts at 730 after the last note.
        assert_eq!(r.registers().pc, 0o731, "{}", r.stderr);
        assert!(r.stderr.contains("halted (pc=000731)"), "{}", r.stderr);
        let (rate, s) = read_wav(&wav);
        assert_eq!(rate, 48_000);
        s
    };
    let near = |f: f64, want: f64| (f - want).abs() / want < 0.01;
    // All four flags mixed: silent through READ IN, the four voice tapes and the compiling,
    // then the music, with the first chord's E4 and E3 among its strongest frequencies, and
    // sound to the end: the run ends with the last note.
    let mix = play("1,2,3,4");
    let first = mix.iter().position(|&v| v != 0).expect("the music plays");
    assert!(
        first > 20 * 48_000,
        "READ IN, the voices and the compiling come first (sound at sample {first})"
    );
    let last = mix.iter().rposition(|&v| v != 0).unwrap();
    assert!(
        mix.len() - last < 48_000,
        "the run ends with the last note ({} samples of silence at the end)",
        mix.len() - last
    );
    let chord = &mix[first..first + 12_000];
    let e4 = spectral_peak(48_000, chord, 300.0, 360.0, 0.1);
    let e3 = spectral_peak(48_000, chord, 150.0, 180.0, 0.1);
    assert!(
        near(e4, 329.63) && near(e3, 164.81),
        "first chord {e4} Hz, {e3} Hz"
    );
    // Each voice alone: the notes of the first eight seconds of music.
    let opening = |s: Vec<i16>| -> Vec<i16> {
        let from = first.saturating_sub(4_800);
        s[from..(from + 8 * 48_000).min(s.len())].to_vec()
    };
    let pf2 = notes(&opening(play("2")), 50);
    let pf3 = notes(&opening(play("3")), 30);
    let show = |n: &[(f64, f64)]| format!("{n:.2?}");
    println!("PF2 (s from the music's start, Hz): {}", show(&pf2));
    println!("PF3 (s from the music's start, Hz): {}", show(&pf3));
    assert!(near(pf2[0].1, 329.63), "PF2 opens on E4: {}", show(&pf2));
    assert!(near(pf3[0].1, 164.81), "PF3 opens on E3: {}", show(&pf3));
    assert!(
        pf2.iter().any(|&(_, f)| near(f, 439.6)),
        "PF2 plays the README's 439.6 Hz (A4): {}",
        show(&pf2)
    );
    assert!(
        pf3.iter().any(|&(_, f)| near(f, 138.59)),
        "PF3 plays C#3 (README: 139.4 Hz): {}",
        show(&pf3)
    );
    // Issue 27: how far each voice lies from equal temperament (A = 440 Hz), in per cent of
    // the nearest equal-tempered pitch: each voice has its own offset, the same for all its
    // notes (the player detunes each part on purpose, `tuw` 642017 in its data), and they are
    // what docs/library.md says.
    // (Flag 1 is silent: the sonata's three parts play on flags 2–4; flag 4's enters later
    // than the opening, so its first minute is taken.)
    let minute =
        |s: Vec<i16>| -> Vec<i16> { s[first..(first + 60 * 48_000).min(s.len())].to_vec() };
    let pf4 = notes(&minute(play("4")), 30);
    println!("PF4 (s from the music's start, Hz): {}", show(&pf4));
    let off = |f: f64| {
        let k = (12.0 * (f / 440.0).log2()).round();
        (f / (440.0 * 2f64.powf(k / 12.0)) - 1.0) * 100.0
    };
    for (flag, n, lo, hi) in [
        (2, &pf2, -0.2, 0.0),
        (3, &pf3, -0.6, -0.35),
        (4, &pf4, -1.0, -0.6),
    ] {
        let o: Vec<f64> = n.iter().map(|&(_, f)| off(f)).collect();
        let (min, max) = o
            .iter()
            .fold((f64::MAX, f64::MIN), |(a, b), &x| (a.min(x), b.max(x)));
        println!("PF{flag}: {} notes, {min:+.2} % to {max:+.2} %", o.len());
        assert!(
            !o.is_empty() && lo <= min && max <= hi,
            "PF{flag}: {min:+.2} % to {max:+.2} % of equal temperament: {}",
            show(n)
        );
    }
}
