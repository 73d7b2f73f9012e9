//! The minifb desktop frontend: Type 30 scope, typewriter paper, console panel, debugger pane.
//! (Filled in by the frontend work.) Entry point: `frontend::run(machine, &cli, &setup)`.
