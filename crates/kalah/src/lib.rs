//! kalah: the reference rules and search. (Filled in by the Kalah work.)
