//! The Type 30 precision CRT display and the Type 32 light pen: `dpy` plots the point at
//! (AC, IO) bits 0–9 with the intensity in the IOT's bits 9–11.
//!
//! Timing follows aap's pulse-level model ([aap] `iot_pulse` case 007, `handleio`): the `dpy`
//! loads the buffers at TP10 of its cycle, the beam deflects for 35 µs, the point is
//! intensified, and the completion pulse follows 4 µs later (with the Type 33 symbol
//! generator's logic, as aap builds it by default; its comment for the plain Type 30 has
//! 15 µs, "schematics say 10"). So a `dpy` that waits takes 10 cycles, 50 µs, a point —
//! the handbook's "20,000 points per second" (pdp1-hardware.md §4.4); with the completion
//! pulse at the handbook's 50 µs the wait would end a fetch (or two) later, 60 µs a point.
//! The point itself is recorded at the IOT (`time_ns`), where the light pen also sees it.
//!
//! # A second display
//!
//! With `MachineConfig::second_display`, `dpy` bit 9 (000400) chooses the display: 0 the
//! first, 1 the second, and the intensity is bits 10–11 alone. This is how aap's PiDP-1
//! emulator attaches two scopes ("intensity bit 2 selects the screen", pdp1-hardware.md §4.4)
//! and what the dual-screen Spacewar! 4.4 (2015) does: its display instructions at 1323–1326
//! are 720007/724007 for one frame and 720407/724407 for the next, switched by program flag 4.
//! The two displays share the one buffer and completion pulse (they take turns; the program
//! never plots on both at once). The Type 32 light pen sits on the first display.

use super::{status, Bus, Device, NEVER, PF3};
use crate::machine::{DisplayPoint, StopReason};
use serde::{Deserialize, Serialize};

/// The beam's deflection before the point is intensified (ns).
pub const DISPLAY_DEFLECTION_NS: u64 = 35_000;
/// From the `dpy` to its completion pulse: deflection and intensification (ns).
pub const DISPLAY_COMPLETION_NS: u64 = DISPLAY_DEFLECTION_NS + 4_000;

/// Points kept for the host before the oldest half is dropped (a host that never drains).
const DISPLAY_BACKLOG: usize = 1 << 20;

#[derive(Clone, Debug, Serialize, Deserialize)]
pub(in crate::machine) struct Display {
    due: u64,
    pub(in crate::machine) points: Vec<DisplayPoint>,
    /// A second display is attached (`dpy` bit 9 chooses it).
    #[serde(default)]
    second: bool,
}

impl Display {
    pub(in crate::machine) fn new(second: bool) -> Display {
        Display {
            due: NEVER,
            points: Vec::new(),
            second,
        }
    }
}

/// (display, intensity code) of a `dpy` instruction.
fn scope_and_intensity(ir: u32, second: bool) -> (u8, u8) {
    let code = ((ir >> 6) & 7) as u8;
    if second {
        (code >> 2, code & 3)
    } else {
        (0, code)
    }
}

/// A 10-bit one's-complement display coordinate: (value, was −0).
pub(super) fn coord(v: u32) -> (i16, bool) {
    let v = v & 0o1777;
    if v & 0o1000 != 0 {
        (-(((v ^ 0o1777) & 0o1777) as i16), v == 0o1777)
    } else {
        (v as i16, false)
    }
}

impl Device for Display {
    const PULSE: u8 = 8;

    fn iot(&mut self, ir: u32, _pc0: u32, pulse: bool, bus: &mut Bus) -> Option<StopReason> {
        let (x, xm) = coord(bus.ac >> 8);
        let (y, ym) = coord(*bus.io >> 8);
        let (scope, intensity) = scope_and_intensity(ir, self.second);
        if self.points.len() >= DISPLAY_BACKLOG {
            self.points.drain(..DISPLAY_BACKLOG / 2);
        }
        self.points.push(DisplayPoint {
            x,
            y,
            x_minus_zero: xm,
            y_minus_zero: ym,
            intensity,
            scope,
            time_ns: bus.now,
        });
        // `dpy` clears the light-pen status bit; if the pen sees this point, the bit and
        // program flag 3 are set ([MAME-drv] `iot_dpy`, [aap] `disp_ddp`; pdp1-hardware.md
        // §4.5). The point is plotted at the IOT in this model (its `time_ns` above), so the
        // pen sees it then too. ±0 both read as 0 (`coord`), the mapping the renderer uses. No
        // sequence break is requested (none of the three emulators does).
        *bus.iosta &= !status::LIGHT_PEN;
        if scope == 0 && bus.pen_sees(x, y) {
            *bus.iosta |= status::LIGHT_PEN;
            *bus.pf |= PF3;
        }
        self.due = bus.now + DISPLAY_COMPLETION_NS;
        bus.request_pulse(Self::PULSE, pulse);
        None
    }

    fn due(&self) -> u64 {
        self.due
    }

    fn service(&mut self, bus: &mut Bus) {
        self.due = NEVER;
        bus.complete(Self::PULSE);
    }

    /// The display requests no breaks.
    fn may_request_break(&self) -> bool {
        false
    }
}
