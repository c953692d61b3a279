//! A stray cell far from the data (at `XFD1048576`, the last cell a sheet can have) must not
//! make the reader allocate the sheet's dense range: the workbook loads with the same result
//! as without the stray cell, and the heap peak while reading stays small.
//!
//! This test binary counts heap bytes with its own global allocator. For scale: calamine's
//! dense `worksheet_range` of `A1:XFD1048576` would need 1,048,576 x 16,384 cells of 24 bytes
//! or more, about 384 GiB.

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use dsplan::ingest::read_inputs;
use rust_xlsxwriter::Workbook;

struct Counting;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let now = CURRENT.fetch_add(layout.size(), Ordering::SeqCst) + layout.size();
            PEAK.fetch_max(now, Ordering::SeqCst);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        CURRENT.fetch_sub(layout.size(), Ordering::SeqCst);
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("ingest")
        .join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create scratch dir");
    dir
}

/// 200 VMs of 1,024 MiB provisioned and 512 MiB in use each, optionally with one stray
/// number at XFD1048576.
fn write_workbook(path: &Path, stray: bool) {
    let mut wb = Workbook::new();
    let ws = wb.add_worksheet().set_name("vInfo").unwrap();
    for (c, h) in [
        "VM",
        "Powerstate",
        "Template",
        "Provisioned MiB",
        "In Use MiB",
    ]
    .iter()
    .enumerate()
    {
        ws.write_string(0, c as u16, *h).unwrap();
    }
    for r in 1..=200u32 {
        ws.write_string(r, 0, format!("vm-{r:03}")).unwrap();
        ws.write_string(r, 1, "poweredOn").unwrap();
        ws.write_string(r, 2, "False").unwrap();
        ws.write_number(r, 3, 1024.0).unwrap();
        ws.write_number(r, 4, 512.0).unwrap();
    }
    if stray {
        ws.write_number(1_048_575, 16_383, 42.0).unwrap();
    }
    wb.save(path).unwrap();
}

#[test]
fn stray_cell_at_xfd1048576_costs_nothing() {
    let dir = scratch("stray_cell");
    let clean = dir.join("clean.xlsx");
    let stray = dir.join("stray.xlsx");
    write_workbook(&clean, false);
    write_workbook(&stray, true);

    let before = CURRENT.load(Ordering::SeqCst);
    PEAK.store(before, Ordering::SeqCst);
    let with_stray = read_inputs(&[&stray]).expect("stray workbook loads");
    let peak_bytes = PEAK.load(Ordering::SeqCst) - before;

    let without = read_inputs(&[&clean]).expect("clean workbook loads");
    // Same VMs and warnings; only the file name differs.
    assert_eq!(with_stray.vms.len(), 200);
    for (a, b) in with_stray.vms.iter().zip(&without.vms) {
        let mut a = a.clone();
        a.origin.file = b.origin.file.clone();
        assert_eq!(&a, b);
    }
    assert_eq!(with_stray.warnings, without.warnings);
    assert!(with_stray.warnings.is_empty());
    // 200 x 1,024 = 204,800 MiB provisioned; 200 x 512 = 102,400 MiB in use.
    let s = with_stray.summary();
    assert_eq!(s.provisioned_mib, 204_800.0);
    assert_eq!(s.in_use_mib, 102_400.0);
    // The whole read, zip buffers and all, stays far below one dense row band: a few MiB.
    assert!(
        peak_bytes < 16 * 1024 * 1024,
        "heap peak while reading: {peak_bytes} bytes"
    );
    println!("heap peak while reading the stray-cell workbook: {peak_bytes} bytes");
}
