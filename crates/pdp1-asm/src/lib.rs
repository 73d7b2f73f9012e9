//! pdp1-asm: MACRO-1 cross-assembler, disassembler and tape formats. (Filled in by the assembler work.)
