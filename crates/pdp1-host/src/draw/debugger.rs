//! The debugger pane: registers, disassembly around PC (with the assembler's symbols), a memory
//! view, breakpoints and an instruction trace that can be saved to a file.

use super::canvas::{cell, rgb, Canvas, Color, Rect};
use super::console::Hit;
use pdp1_asm::disasm::disassemble_within;
use pdp1_asm::SymbolTable;
use pdp1_core::{Machine, Word};
use std::collections::VecDeque;

/// Trace lines kept in memory (and written by "save trace").
pub const TRACE_KEEP: usize = 20_000;

const BG: Color = rgb(0x0e, 0x12, 0x16);
const TEXT: Color = rgb(0xb8, 0xc8, 0xb8);
const DIM: Color = rgb(0x6c, 0x7c, 0x70);
const HEAD: Color = rgb(0x8c, 0xd0, 0xff);
const PC_BAR: Color = rgb(0x24, 0x3c, 0x2c);
const CURSOR_BAR: Color = rgb(0x2c, 0x2c, 0x48);
const BREAK: Color = rgb(0xff, 0x58, 0x58);

#[derive(Default)]
pub struct Debugger {
    pub symbols: Option<SymbolTable>,
    /// Disassembly cursor; `None` follows PC.
    pub cursor: Option<u32>,
    /// First address of the memory view.
    pub mem_addr: u32,
    pub tracing: bool,
    /// Addresses whose write stops the machine (ctrl+K): a store instruction (`dac`, `dap`,
    /// `dip`, `dio`, `dzm`, `idx`, `isp`, `jda`, `cal`) into one of them.
    pub watches: std::collections::BTreeSet<u32>,
    trace: VecDeque<String>,
    /// Trace lines ever recorded (to number saved files and show progress).
    pub traced: u64,
}

impl Debugger {
    pub fn new(symbols: Option<SymbolTable>) -> Debugger {
        Debugger {
            symbols,
            mem_addr: 0o100,
            ..Debugger::default()
        }
    }

    /// `w` as `m` names it (`mus`/`dis` without the Type 10), in at most `room` characters.
    pub fn disasm(&self, w: Word, m: &Machine, room: usize) -> String {
        disassemble_within(w, self.symbols.as_ref(), m.config(), room)
    }

    /// Address with its symbol, `start+3` style when a label is near.
    pub fn addr_name(&self, a: u32) -> Option<String> {
        let syms = self.symbols.as_ref()?;
        syms.name_of(a).map(str::to_string)
    }

    /// Keep a trace line made elsewhere (a sequence-break entry's, which is no instruction).
    pub fn record_line(&mut self, line: String) {
        if self.trace.len() >= TRACE_KEEP {
            self.trace.pop_front();
        }
        self.trace.push_back(line);
    }

    /// The kept trace, one line each (ctrl+W writes it to a file).
    pub fn trace_text(&self) -> String {
        self.trace.iter().map(|l| format!("{l}\n")).collect()
    }

    /// The address (octal) or symbol `text` names, for go-to.
    pub fn resolve(&self, text: &str, mask: u32) -> Option<u32> {
        let t = text.trim();
        if let Ok(a) = u32::from_str_radix(t, 8) {
            return Some(a & mask);
        }
        self.symbols.as_ref()?.value_of(t).map(|a| a & mask)
    }

    /// Address the disassembly is centred on.
    pub fn focus(&self, m: &Machine) -> u32 {
        self.cursor.unwrap_or_else(|| m.pc())
    }

    /// Draw the pane into `r`; disassembly lines leave hit boxes (click = breakpoint).
    pub fn draw(
        &self,
        c: &mut Canvas,
        r: Rect,
        s: i32,
        m: &Machine,
        status: &str,
        hits: &mut Vec<(Rect, Hit)>,
    ) {
        let (cw, lh) = cell(s);
        c.fill(r, BG);
        let x = r.x + 4 * s;
        let mut y = r.y + 3 * s;
        let head = format!(
            "PC {:06o} AC {:06o} IO {:06o} OV {} PF {:02o}  t={:.6}s",
            m.pc(),
            m.ac().bits(),
            m.io().bits(),
            m.ov() as u8,
            m.pf(),
            m.time_ns() as f64 * 1e-9
        );
        c.text_clipped(x, y, &head, HEAD, s, r.right());
        y += lh;
        // While the tape is read in (21 s for Kalah at the reader's 400 lines/s) say how far.
        let reading;
        let status = if m.reading_in() {
            reading = format!(
                "READ IN: {} frames of tape left (F11: faster)",
                m.tape_remaining()
            );
            &reading
        } else {
            status
        };
        c.text_clipped(x, y, status, TEXT, s, r.right());
        y += lh + s;

        let rows_total = ((r.bottom() - y) / lh).max(0);
        let trace_rows = if self.tracing { rows_total * 2 / 5 } else { 0 };
        // Less the column header and the breakpoint line.
        let list_rows = (rows_total - trace_rows - 2).max(0);
        let mem_words = m.memory().len() as u32;
        let mask = mem_words.saturating_sub(1);

        // Disassembly (left) and memory (right).
        let split = r.x + (r.w * 3 / 5).max(30 * cw);
        let focus = self.focus(m);
        let bps = m.breakpoints();
        let first = focus.wrapping_sub((list_rows / 3) as u32) & mask;
        c.text(x, y, "ADDR   WORD    INSTRUCTION", DIM, s);
        c.text_clipped(split, y, "MEMORY", DIM, s, r.right());
        y += lh;
        for i in 0..list_rows {
            let a = first.wrapping_add(i as u32) & mask;
            let w = m.read(a).unwrap_or(Word::ZERO);
            let ly = y + i * lh;
            let bar = Rect::new(r.x, ly - s, split - r.x - 2 * s, lh);
            if a == m.pc() {
                c.fill(bar, PC_BAR);
            } else if Some(a) == self.cursor {
                c.fill(bar, CURSOR_BAR);
            }
            let mark = match (bps.contains(&a), a == m.pc()) {
                (true, true) => "*>",
                (true, false) => "* ",
                (false, true) => " >",
                _ => "  ",
            };
            let label = self
                .addr_name(a)
                .map(|n| format!("{n},"))
                .unwrap_or_default();
            let head = format!("{mark}{a:04o} {:06o}  {label:<7}", w.bits());
            // The room left for the instruction (issue 25: a long one was cut off whole).
            let room =
                (((split - cw - x) / cw).max(0) as usize).saturating_sub(head.chars().count());
            let line = head + &self.disasm(w, m, room);
            let col = if bps.contains(&a) { BREAK } else { TEXT };
            c.text_clipped(x, ly, &line, col, s, split - cw);
            hits.push((bar, Hit::Line(a)));

            // Memory view: two words per line.
            let ma = (self.mem_addr & mask).wrapping_add(2 * i as u32) & mask;
            let w0 = m.read(ma).unwrap_or(Word::ZERO).bits();
            let w1 = m.read((ma + 1) & mask).unwrap_or(Word::ZERO).bits();
            c.text_clipped(
                split,
                ly,
                &format!("{ma:04o}/ {w0:06o} {w1:06o}"),
                TEXT,
                s,
                r.right(),
            );
        }
        y += list_rows * lh;
        let mut bp_text = if bps.is_empty() {
            "breakpoints: none (click a line or ctrl+B)".to_string()
        } else {
            let mut v: Vec<_> = bps.iter().map(|b| format!("{b:04o}")).collect();
            v.sort();
            format!("breakpoints: {}", v.join(" "))
        };
        if !self.watches.is_empty() {
            let v: Vec<_> = self.watches.iter().map(|a| format!("{a:04o}")).collect();
            bp_text.push_str(&format!("  writes: {}", v.join(" ")));
        }
        c.text_clipped(x, y, &bp_text, BREAK, s, r.right());
        y += lh;

        if self.tracing {
            c.text_clipped(
                x,
                y,
                &format!("TRACE ({} instructions, ctrl+W saves)", self.traced),
                DIM,
                s,
                r.right(),
            );
            y += lh;
            let n = (trace_rows - 1).max(0) as usize;
            let lines: Vec<_> = self.trace.iter().rev().take(n).collect();
            for (i, l) in lines.iter().rev().enumerate() {
                c.text_clipped(x, y + i as i32 * lh, l, TEXT, s, r.right());
            }
        }
    }
}
