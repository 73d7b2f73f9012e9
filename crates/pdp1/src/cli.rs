//! The `pdp1` command line. Option names and output forms are a contract that tests and users
//! script against (issues 2, 5, 7): keep them.

use clap::Parser;
use std::path::PathBuf;

/// pdp1 — a cycle-accurate DEC PDP-1C. Mounts TAPE in the reader and presses READ IN.
#[derive(Parser, Debug, Clone, Default)]
#[command(name = "pdp1", version, about)]
pub struct Cli {
    /// Paper tape (RIM or BLK image) to read in.
    pub tape: Option<PathBuf>,

    /// No window: the typewriter prints to stdout.
    #[arg(long)]
    pub headless: bool,

    /// Serve the machine on the PiDP-1's ports at ADDR (default 127.0.0.1, loopback): the
    /// debug protocol (1040), the typewriter (1041) and the Type 30's points (3400), for
    /// `pdp1dbg.py`, `pdp1_periph` and telnet (docs/pidp1.md), beside the window, or alone
    /// with --headless (then TAPE is optional and the process serves until killed).
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = "127.0.0.1")]
    pub listen: Option<std::net::IpAddr>,
    /// --listen: the debug, typewriter and display ports (0: any free one, said on stderr).
    #[arg(long, value_name = "D,T,S", default_value = "1040,1041,3400")]
    pub ports: String,
    /// --listen: the directory the debug protocol's tape names are in (default: here).
    #[arg(long, value_name = "DIR")]
    pub tape_dir: Option<PathBuf>,

    /// Keys struck in order (`\r` or newline = carriage return, `\b` = backspace). Each key is
    /// struck after the program took the previous one and at least 100 ms of emulated time passed.
    /// Without --type, keys come from stdin (headless).
    #[arg(long = "type", value_name = "TEXT")]
    pub type_text: Option<String>,

    /// Test word switches (octal).
    #[arg(long, value_name = "OCTAL")]
    pub tw: Option<String>,
    /// Sense switches that are on, e.g. `3,5`.
    #[arg(long, value_name = "LIST")]
    pub ss: Option<String>,
    /// Test address switches (octal).
    #[arg(long, value_name = "OCTAL")]
    pub ta: Option<String>,
    /// Type 10 multiply/divide installed.
    #[arg(long)]
    pub mdv: bool,
    /// PDP-1D operate bits lai (760040) and lia (760020); both together are `swp` (760060),
    /// which exchanges AC and IO. Without it they do nothing (a PDP-1C).
    #[arg(long)]
    pub swp: bool,
    /// A second Type 30 display: `dpy` bit 400 chooses it (then bits 100–200 are the
    /// intensity), as the dual-screen Spacewar! 4.4 expects.
    #[arg(long)]
    pub second_display: bool,
    /// Type 120 sixteen-channel sequence break system installed (`dsc`, `asc`, `isb`, `cac`;
    /// channel n breaks to 4n; reader 1, punch 6, typewriter in 7, out 8). Without it the
    /// standard one-channel break.
    #[arg(long)]
    pub sbs16: bool,
    /// Console EXTEND switch on (Type 15 extend mode at start/read-in).
    #[arg(long)]
    pub extend: bool,
    /// Hold the Type 32 light pen at Type 30 coordinates X,Y (decimal, -511..511, y up) for
    /// the whole run; write `--light-pen=-10,20` for a negative X. In the window the mouse
    /// moves it while the left button is held on the scope.
    #[arg(long, value_name = "X,Y", allow_hyphen_values = true)]
    pub light_pen: Option<String>,
    /// How near (coordinate steps) a point must be for the light pen to see it (default 5).
    #[arg(long, value_name = "N")]
    pub light_pen_radius: Option<u16>,
    /// The machine: `auto` (default) builds the one the tape's content asks for (the Type 10
    /// multiply/divide unless it multiplies in steps, 64K if it uses extend mode, …; see
    /// docs/library.md) and sets a known tape's console as its operator would. A profile name
    /// (`pdp1c`, `mdv`, `music`, `lisp`, `dual`, `flash`, `bell`) builds that machine for any
    /// tape; `none` the settings alone. Options given on the command line or in --config win
    /// over the profile.
    #[arg(long, value_name = "NAME")]
    pub profile: Option<String>,
    /// Memory size: 4K, 8K, … 64K.
    #[arg(long, value_name = "SIZE")]
    pub memory: Option<String>,

    /// Stop after S seconds of emulated time.
    #[arg(long, value_name = "S")]
    pub max_seconds: Option<f64>,
    /// Stop after N instructions.
    #[arg(long, value_name = "N")]
    pub max_instructions: Option<u64>,

    /// At exit print `pc=NNNNNN ac=NNNNNN io=NNNNNN ov=N pf=NN cycles=N` on stderr.
    #[arg(long)]
    pub registers: bool,
    /// At exit print memory A..B as `AAAA/ WWWWWW` lines on stderr (octal, e.g. `100-117`).
    #[arg(long, value_name = "A-B")]
    pub examine: Vec<String>,
    /// Write one line per executed instruction to FILE.
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,

    /// RON machine configuration; command-line flags override it.
    #[arg(long, value_name = "FILE.ron")]
    pub config: Option<PathBuf>,

    /// Symbol table from pdp1-asm for the debugger and trace.
    #[arg(long, value_name = "FILE")]
    pub symbols: Option<PathBuf>,
    /// Write the window's image to FILE.png at exit (works with --headless too).
    #[arg(long, value_name = "FILE.png")]
    pub screenshot: Option<PathBuf>,
    /// Speed: `1` (real PDP-1 time, default in the window), a factor like `4`, or `max`.
    #[arg(long, value_name = "SPEED")]
    pub speed: Option<String>,

    /// Headless: write the run's sound — program flags 1–4 as square waves, mixed — to FILE.wav
    /// (mono, 16-bit, 48000 Hz; one sample per 1/48000 s of emulated time).
    #[arg(long, value_name = "FILE.wav")]
    pub audio: Option<PathBuf>,
    /// Window: start with the sound off (Ctrl+U turns it on and off).
    #[arg(long)]
    pub mute: bool,
    /// Window: a kiosk (a museum's machine running all day): full screen (X11), the tube first,
    /// keys without Ctrl reach only the typewriter, and the tape is read in again on a fresh
    /// sheet a minute after a game ends or after 5 minutes without a key
    #[arg(long)]
    pub kiosk: bool,
    /// Program flags that sound, e.g. `1,2,3,4` (the default, as on the PiDP-1) or `none`
    /// (headless `--audio`).
    #[arg(long, value_name = "LIST")]
    pub sound_flags: Option<String>,

    /// Write everything punched to FILE at exit.
    #[arg(long, value_name = "FILE")]
    pub punch: Option<PathBuf>,
    /// A second tape put in the reader once the first has been read in (e.g. LISP definitions).
    /// Given more than once, the tapes queue: each goes in when the one before has run out.
    #[arg(long, value_name = "FILE")]
    pub reader: Vec<PathBuf>,
    /// Save the machine state to FILE.ron at exit.
    #[arg(long, value_name = "FILE.ron")]
    pub save_state: Option<PathBuf>,
    /// Restore the machine state from FILE.ron instead of reading in a tape.
    #[arg(long, value_name = "FILE.ron")]
    pub load_state: Option<PathBuf>,

    /// Once READ IN is done (or on the restored state): set the test address to OCTAL and press
    /// DEPOSIT (AC and memory at OCTAL ← test word), as an operator does before a START.
    #[arg(long, value_name = "OCTAL")]
    pub deposit: Option<String>,
    /// Once READ IN is done (and after --deposit): set the test address to OCTAL and press
    /// START, instead of running from the tape's own start address.
    #[arg(long, value_name = "OCTAL")]
    pub start: Option<String>,

    /// Stop when the program is about to execute the instruction at this address (octal);
    /// may be given more than once.
    #[arg(long, value_name = "OCTAL")]
    pub breakpoint: Vec<String>,
    /// Press CONTINUE after each of the first N halts instead of ending the run (programs such
    /// as LISP halt to let the operator set the switches).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub continue_halts: u32,
    /// Test words (octal, comma-separated) to set before each of those CONTINUEs, in order; the
    /// last one stays for any further halts.
    #[arg(long, value_name = "LIST")]
    pub halt_tw: Option<String>,
    /// An operator's script: switches, START/STOP/CONTINUE, READ IN, tapes, keys and waits,
    /// one action a line (docs/headless.md, "Operator scripts"); headless and in the window.
    /// Without a TAPE, the script's first `mount` + `readin` is the boot tape.
    #[arg(long, value_name = "FILE")]
    pub script: Option<PathBuf>,
    /// Headless: say on stderr why the run ended, even when it ended normally.
    #[arg(long, short = 'v')]
    pub verbose: bool,

    /// Play one match of the ManKalah engine's 7×7 pie-rule game (kalah.md §4) with the Kalah
    /// program on TAPE (roms/kalah7.rim): engine messages on stdin, `MOVE;n`/`SWAP` on stdout,
    /// progress on stderr. No window. See docs/kalah.md.
    #[arg(long)]
    pub mankalah: bool,
    /// --mankalah: the program's search depth (test word bits 14–17), 1–15: that depth alone,
    /// move for move the reference's. Without it the tournament setting: deeper and deeper
    /// until the time per move (see --move-time and docs/kalah.md).
    #[arg(long, value_name = "N")]
    pub depth: Option<u32>,
    /// --mankalah: PDP-1 seconds per move for the time-managed search (default 24000, about
    /// 4–9 s of the host; at most 10 s of the host whatever this says): then sense switch 1
    /// tells the program to move. With --depth, that depth is the limit.
    #[arg(long, value_name = "SECONDS")]
    pub move_time: Option<f64>,

    /// Serve the web page (docs/web.md) at http://127.0.0.1:PORT/ from the binary itself, with
    /// TAPE (if given) beside it as the page's tape. Runs until interrupted.
    #[arg(long)]
    pub serve: bool,
    /// --serve: the port (default 8061; 0 picks a free one, printed).
    #[arg(long, value_name = "N")]
    pub port: Option<u16>,
    /// Write the web page's files into DIR, a static folder any web server can host.
    #[arg(long, value_name = "DIR")]
    pub write_page: Option<PathBuf>,
}
