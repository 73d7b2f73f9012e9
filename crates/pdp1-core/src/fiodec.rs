//! FIO-DEC ("Concise") 6-bit typewriter and tape code. (Filled in by the core work.)
