//! Issue 25: two tests of one run shared `scratch("library-spacewar48.rim")` and read each
//! other's saved state. Every `scratch` folder is a test's own, whatever name it is given, and
//! is gone when the test ends — also when it ends in a panic.

use test_support::scratch;

#[test]
fn the_same_name_gives_different_folders_in_parallel() {
    let folders: Vec<_> = std::thread::scope(|s| {
        let runs: Vec<_> = (0..8)
            .map(|i| {
                s.spawn(move || {
                    let d = scratch("same-name");
                    std::fs::write(d.join("state.ron"), i.to_string()).unwrap();
                    d
                })
            })
            .collect();
        runs.into_iter().map(|r| r.join().unwrap()).collect()
    });
    for (i, d) in folders.iter().enumerate() {
        assert_eq!(
            std::fs::read_to_string(d.join("state.ron")).unwrap(),
            i.to_string(),
            "{} was written by another thread",
            d.display()
        );
        for e in &folders[i + 1..] {
            assert_ne!(d.path(), e.path());
        }
    }
}

#[test]
fn the_folder_is_removed_when_the_test_ends_and_when_it_panics() {
    let d = scratch("removed");
    let p = d.to_path_buf();
    std::fs::write(d.join("f"), "x").unwrap();
    drop(d);
    assert!(!p.exists(), "{} left behind", p.display());

    let (tx, rx) = std::sync::mpsc::channel();
    let panicked = std::thread::spawn(move || {
        let d = scratch("removed-on-panic");
        std::fs::write(d.join("f"), "x").unwrap();
        tx.send(d.to_path_buf()).unwrap();
        panic!("a failing test");
    })
    .join();
    assert!(panicked.is_err());
    let p = rx.recv().unwrap();
    assert!(!p.exists(), "{} left behind by a panic", p.display());
}

#[test]
fn a_name_with_a_slash_stays_inside_the_temporary_folder() {
    let d = scratch("a/b");
    assert_eq!(d.parent(), Some(std::env::temp_dir().as_path()));
    assert!(d.is_dir());
}
