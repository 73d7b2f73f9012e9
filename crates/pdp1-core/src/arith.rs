//! One's-complement arithmetic of the PDP-1, in one place. (Filled in by the core work.)
