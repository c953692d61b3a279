//! The bad-input catalogue (issue 12, Build 3): hostile and broken xlsx and CSV inputs, each
//! with the kind of error it gives (`dsplan::Error::kind()`, and the exit code through the
//! command), a message naming the file and the problem, and a bounded heap.
//!
//! The bombs are generated here, not stored: `Deflate` writes a fixed-Huffman deflate stream
//! of a repeated unit (a 258-byte match costs 13 bits, so 1.5 GiB of whitespace is ~9.5 MB)
//! and `write_zip` puts it into a copy of `fixtures/small-estate.xlsx` with its true
//! declared size. Their CRC is left 0: dsplan must refuse them from the central directory
//! before inflating a byte (the real bombs, with true CRCs, are run through the command in
//! `shared_reproducers_exit_0_or_1`). The small reproducers of
//! `../shared/fuzz-findings` are in `fixtures/hostile/`.
//!
//! Heap: this binary counts the bytes each thread has allocated (a per-thread counter in the
//! global allocator), so a test's peak is its own even with tests running in parallel.

// Runs the `dsplan` binary, which the `cli` feature builds.
#![cfg(feature = "cli")]

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;

use dsplan::ErrorKind;
use dsplan::ingest::{read_inputs, read_perf_csv};
use dsplan::inventory::{Inventory, Warning};

struct Counting;

thread_local! {
    static CURRENT: Cell<isize> = const { Cell::new(0) };
    static PEAK: Cell<isize> = const { Cell::new(0) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let _ = CURRENT.try_with(|c| {
                c.set(c.get() + layout.size() as isize);
                let _ = PEAK.try_with(|p| p.set(p.get().max(c.get())));
            });
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        let _ = CURRENT.try_with(|c| c.set(c.get() - layout.size() as isize));
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Runs `f` and returns its result and this thread's heap peak above the start, in bytes.
fn peak_heap<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let start = CURRENT.with(Cell::get);
    PEAK.with(|p| p.set(start));
    let out = f();
    let peak = PEAK.with(Cell::get) - start;
    (out, peak.max(0) as usize)
}

const MIB: usize = 1 << 20;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("bad_input")
        .join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

// ---------------------------------------------------------------------------------------
// A minimal zip writer and a fixed-Huffman deflate encoder.

/// CRC-32 (IEEE), bitwise: only used on small parts.
fn crc32(data: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in data {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// One part: name, method (0 stored, 8 deflated), CRC, the bytes as stored, and the
/// declared uncompressed size.
struct Entry {
    name: String,
    method: u16,
    crc: u32,
    data: Vec<u8>,
    size: u64,
}

impl Entry {
    fn stored(name: &str, data: &[u8]) -> Entry {
        Entry {
            name: name.to_string(),
            method: 0,
            crc: crc32(data),
            data: data.to_vec(),
            size: data.len() as u64,
        }
    }
}

/// The parts of `fixtures/small-estate.xlsx` as stored (compressed bytes kept).
fn seed_entries() -> Vec<Entry> {
    let f = std::fs::File::open(root().join("fixtures/small-estate.xlsx")).unwrap();
    let mut zip = zip::ZipArchive::new(f).unwrap();
    (0..zip.len())
        .map(|i| {
            let mut e = zip.by_index_raw(i).unwrap();
            let mut data = Vec::new();
            let (name, method, crc, size) = (
                e.name().unwrap().to_string(),
                if e.compression() == zip::CompressionMethod::Stored {
                    0
                } else {
                    8
                },
                e.crc32(),
                e.size(),
            );
            e.read_to_end(&mut data).unwrap();
            Entry {
                name,
                method,
                crc,
                data,
                size,
            }
        })
        .collect()
}

/// Writes a zip of `entries` (no zip64: every size below 4 GiB).
fn write_zip(path: &Path, entries: &[Entry]) {
    let mut out = Vec::new();
    let mut central = Vec::new();
    for e in entries {
        let offset = out.len() as u32;
        let fixed = |sig: u32, buf: &mut Vec<u8>, central: bool| {
            buf.extend_from_slice(&sig.to_le_bytes());
            if central {
                buf.extend_from_slice(&20u16.to_le_bytes()); // made by
            }
            for v in [20u16, 0, e.method, 0, 0x21] {
                buf.extend_from_slice(&v.to_le_bytes()); // version, flags, method, time, date
            }
            buf.extend_from_slice(&e.crc.to_le_bytes());
            buf.extend_from_slice(&(e.data.len() as u32).to_le_bytes());
            buf.extend_from_slice(&(e.size as u32).to_le_bytes());
            buf.extend_from_slice(&(e.name.len() as u16).to_le_bytes());
            buf.extend_from_slice(&0u16.to_le_bytes()); // extra
        };
        fixed(0x0403_4b50, &mut out, false);
        out.extend_from_slice(e.name.as_bytes());
        out.extend_from_slice(&e.data);
        fixed(0x0201_4b50, &mut central, true);
        for v in [0u16, 0, 0] {
            central.extend_from_slice(&v.to_le_bytes()); // comment, disk, internal attrs
        }
        central.extend_from_slice(&0u32.to_le_bytes()); // external attrs
        central.extend_from_slice(&offset.to_le_bytes());
        central.extend_from_slice(e.name.as_bytes());
    }
    let cd_offset = out.len() as u32;
    out.extend_from_slice(&central);
    out.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
    let n = entries.len() as u16;
    for v in [0u16, 0, n, n] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(&(central.len() as u32).to_le_bytes());
    out.extend_from_slice(&cd_offset.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    std::fs::write(path, out).unwrap();
}

/// `fixtures/small-estate.xlsx` with `part` replaced, written to `dir/name`.
fn workbook_with(dir: &Path, name: &str, part: Entry) -> PathBuf {
    let mut entries = seed_entries();
    let slot = entries.iter_mut().find(|e| e.name == part.name).unwrap();
    *slot = part;
    let path = dir.join(name);
    write_zip(&path, &entries);
    path
}

/// A fixed-Huffman deflate stream (RFC 1951, BTYPE 01), written LSB first.
struct Deflate {
    out: Vec<u8>,
    acc: u64,
    bits: u32,
}

impl Deflate {
    fn new() -> Deflate {
        let mut d = Deflate {
            out: Vec::new(),
            acc: 0,
            bits: 0,
        };
        d.put(1, 1); // BFINAL
        d.put(1, 2); // BTYPE 01: fixed Huffman
        d
    }
    fn put(&mut self, value: u32, n: u32) {
        self.acc |= u64::from(value) << self.bits;
        self.bits += n;
        while self.bits >= 8 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.bits -= 8;
        }
    }
    /// A Huffman code, most significant bit first.
    fn code(&mut self, code: u32, n: u32) {
        let reversed = code.reverse_bits() >> (32 - n);
        self.put(reversed, n);
    }
    fn literal(&mut self, b: u8) {
        if b < 144 {
            self.code(0x30 + u32::from(b), 8);
        } else {
            self.code(0x190 + u32::from(b) - 144, 9);
        }
    }
    /// A match of 258 bytes (length code 285) at `dist` (1..=64) back.
    fn match258(&mut self, dist: u32) {
        self.code(0xC5, 8);
        let (code, base, extra) = match dist {
            1..=4 => (dist - 1, dist, 0),
            5..=8 => (4 + (dist - 5) / 2, 5 + (dist - 5) / 2 * 2, 1),
            9..=16 => (6 + (dist - 9) / 4, 9 + (dist - 9) / 4 * 4, 2),
            17..=32 => (8 + (dist - 17) / 8, 17 + (dist - 17) / 8 * 8, 3),
            _ => (10 + (dist - 33) / 16, 33 + (dist - 33) / 16 * 16, 4),
        };
        self.code(code, 5);
        self.put(dist - base, extra);
    }
    fn finish(mut self) -> Vec<u8> {
        self.code(0, 7); // end of block
        if self.bits > 0 {
            self.out.push(self.acc as u8);
        }
        self.out
    }
}

/// A deflated part: `prefix`, then `unit` repeated to at least `min_bytes`, then `suffix`.
fn periodic(name: &str, prefix: &[u8], unit: &[u8], min_bytes: u64, suffix: &[u8]) -> Entry {
    let mut d = Deflate::new();
    prefix.iter().for_each(|&b| d.literal(b));
    unit.iter().for_each(|&b| d.literal(b));
    let mut body = unit.len() as u64;
    while body < min_bytes {
        d.match258(unit.len() as u32);
        body += 258;
    }
    // Complete the last unit, so the body is whole units.
    let rem = (body % unit.len() as u64) as usize;
    if rem != 0 {
        unit[rem..].iter().for_each(|&b| d.literal(b));
        body += (unit.len() - rem) as u64;
    }
    suffix.iter().for_each(|&b| d.literal(b));
    Entry {
        name: name.to_string(),
        method: 8,
        crc: 0,
        data: d.finish(),
        size: prefix.len() as u64 + body + suffix.len() as u64,
    }
}

const SHEET_HEAD: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>"#;
const SHEET_TAIL: &str = "</sheetData></worksheet>";

fn inline(r: &str, text: &str) -> String {
    format!(r#"<c r="{r}" t="inlineStr"><is><t>{text}</t></is></c>"#)
}

/// vInfo (sheet1) with the header `VM`, `Provisioned MiB` and the given rows of XML.
fn vinfo_sheet(rows: &str) -> Vec<u8> {
    let header = format!(
        r#"<row r="1">{}{}</row>"#,
        inline("A1", "VM"),
        inline("B1", "Provisioned MiB")
    );
    format!("{SHEET_HEAD}{header}{rows}{SHEET_TAIL}").into_bytes()
}

// ---------------------------------------------------------------------------------------
// Checks.

/// Reads `path` and returns the error, asserting it is an input error whose message names
/// the file and contains every `what`.
fn input_error(path: &Path, what: &[&str]) -> String {
    let err = match read_inputs(&[path]) {
        Ok(_) => panic!("{} was accepted", path.display()),
        Err(e) => dsplan::Error::from(e),
    };
    assert_eq!(err.kind(), ErrorKind::Input, "{err}");
    let msg = err.to_string();
    let name = path.file_name().unwrap().to_string_lossy();
    assert!(
        msg.contains(&*name),
        "message does not name the file: {msg}"
    );
    for w in what {
        assert!(msg.contains(w), "message lacks '{w}': {msg}");
    }
    assert!(msg.len() < 2_000, "message of {} bytes", msg.len());
    msg
}

fn ok(path: &Path) -> Inventory {
    match read_inputs(&[path]) {
        Ok(inv) => inv,
        Err(e) => panic!("{} refused: {e}", path.display()),
    }
}

fn warned<'a>(inv: &'a Inventory, what: &str) -> &'a Warning {
    inv.warnings
        .iter()
        .find(|w| w.to_string().contains(what))
        .unwrap_or_else(|| panic!("no warning with '{what}': {:?}", inv.warnings))
}

fn csv(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

// ---------------------------------------------------------------------------------------
// Broken packages.

#[test]
fn truncated_zip() {
    let dir = scratch("truncated");
    let bytes = std::fs::read(root().join("fixtures/small-estate.xlsx")).unwrap();
    // Half of the file: the central directory (at the end) is gone.
    let path = csv(&dir, "half.xlsx", &bytes[..bytes.len() / 2]);
    input_error(&path, &["not a spreadsheet", "zip"]);
}

#[test]
fn zip_that_is_not_xlsx() {
    let dir = scratch("not_xlsx");
    let path = dir.join("notes.xlsx");
    write_zip(&path, &[Entry::stored("notes.txt", b"hello")]);
    input_error(&path, &["xl/workbook.xml"]);
}

#[test]
fn empty_and_garbage_xlsx() {
    let dir = scratch("garbage");
    input_error(&csv(&dir, "empty.xlsx", b""), &["empty"]);
    input_error(
        &csv(&dir, "text.xlsx", b"VM,Provisioned MiB\nvm1,1\n"),
        &["zip"],
    );
}

#[test]
fn zip_bomb_of_whitespace_is_refused_by_its_declared_size() {
    let dir = scratch("bomb_ws");
    // 1.5 GiB of spaces between two rows: 1,610,612,736 bytes / 258 per 13-bit match is
    // ~6.2 million matches, ~10 MB deflated; the cap is 1 GiB (1,024 MiB).
    let part = periodic(
        "xl/worksheets/sheet1.xml",
        &vinfo_sheet("")[..SHEET_HEAD.len()],
        b" ",
        3 << 29,
        SHEET_TAIL.as_bytes(),
    );
    let path = workbook_with(&dir, "ws.xlsx", part);
    let (msg, heap) = peak_heap(|| input_error(&path, &["[vInfo]", "sheet1.xml", "1,536 MiB"]));
    assert!(heap < 16 * MIB, "{heap} bytes of heap: {msg}");
}

#[test]
fn gigabytes_of_empty_cells_are_refused() {
    let dir = scratch("bomb_cells");
    // 2 GiB of `<c/>` (4 bytes each): over the 1 GiB cap.
    let rows = r#"<row r="2">"#;
    let head = [
        &vinfo_sheet("")[..vinfo_sheet("").len() - SHEET_TAIL.len()],
        rows.as_bytes(),
    ]
    .concat();
    let part = periodic(
        "xl/worksheets/sheet1.xml",
        &head,
        b"<c/>",
        2 << 30,
        b"</row></sheetData></worksheet>",
    );
    let path = workbook_with(&dir, "cells.xlsx", part);
    let (_, heap) = peak_heap(|| input_error(&path, &["[vInfo]", "2,048 MiB", "zip bomb"]));
    assert!(heap < 16 * MIB, "{heap} bytes of heap");
}

#[test]
fn highly_inflating_part_under_the_size_cap_is_refused() {
    let dir = scratch("ratio");
    // 80 MiB of `<c/>`: under 1 GiB, but 80 MiB deflated 4 bytes per 13 bits is ~160x
    // (258 bytes in 13 bits = 158.8x), over the 100x limit for parts past 64 MiB.
    let head = [
        &vinfo_sheet("")[..vinfo_sheet("").len() - SHEET_TAIL.len()],
        b"<row r=\"2\">",
    ]
    .concat();
    let part = periodic(
        "xl/worksheets/sheet1.xml",
        &head,
        b"<c/>",
        80 << 20,
        b"</row></sheetData></worksheet>",
    );
    let path = workbook_with(&dir, "ratio.xlsx", part);
    input_error(&path, &["[vInfo]", "inflates", "zip bomb"]);
}

#[test]
fn shared_strings_count_of_2_pow_31_and_2_pow_64_minus_1() {
    let dir = scratch("sst");
    for (count, file) in [
        ("2147483648", "sst31.xlsx"),
        ("18446744073709551615", "sst64.xlsx"),
    ] {
        let xml = format!(
            r#"<?xml version="1.0"?><sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="{count}" uniqueCount="{count}"><si><t>VM</t></si></sst>"#
        );
        // The part is ~150 bytes: at most 150 / 5 + 1 = 31 strings could be in it.
        let path = workbook_with(
            &dir,
            file,
            Entry::stored("xl/sharedStrings.xml", xml.as_bytes()),
        );
        let (_, heap) = peak_heap(|| input_error(&path, &["sharedStrings.xml", count]));
        assert!(heap < 16 * MIB, "{heap} bytes of heap");
    }
}

#[test]
fn one_mib_strings_are_read_and_quoted_short() {
    let dir = scratch("long_strings");
    let name = "v".repeat(MIB);
    let number = "9".repeat(MIB);
    let rows = format!(
        r#"<row r="2">{}{}</row>"#,
        inline("A2", &name),
        inline("B2", &number)
    );
    let path = workbook_with(
        &dir,
        "long.xlsx",
        Entry::stored("xl/worksheets/sheet1.xml", &vinfo_sheet(&rows)),
    );
    let inv = ok(&path);
    assert_eq!(inv.vms.len(), 1);
    // A 1 MiB run of nines parses as 1e1048575 = inf: not a number, quoted as its first 60
    // characters and its length.
    let w = warned(&inv, "not a number");
    let value = w.value.as_deref().unwrap();
    assert_eq!(
        value,
        format!("{}... (1,048,576 characters)", "9".repeat(60))
    );
}

/// Round 4's `mem/cluster-30m.xlsx`: a 30,000,000-character cluster name (row 2) and
/// datacenter (row 3), 2.6 GB and 330 MB of JSON to plan, and `--format xlsx` failing with
/// "String exceeds Excel's limit of 32,767 characters." naming no sheet or cell. Scaled
/// down to 300,000 characters each, still past Excel's limit: both are clipped where they
/// are read to their first 256 characters (`ingest::MAX_NAME_CHARS`), each with a warning
/// at its cell, so the JSON stays small and the workbook is written.
#[test]
fn names_past_excels_limit_are_clipped_at_read_and_the_workbook_is_written() {
    let dir = scratch("cluster_300k");
    let cluster = "C".repeat(300_000);
    let datacenter = "D".repeat(300_000);
    let header = [
        "VM",
        "Provisioned MiB",
        "In Use MiB",
        "Cluster",
        "Datacenter",
    ];
    let head: String = (header.iter().enumerate())
        .map(|(i, h)| inline(&format!("{}1", char::from(b'A' + i as u8)), h))
        .collect();
    let row = |r: usize, vm: &str, cluster: &str, dc: &str| {
        format!(
            r#"<row r="{r}">{}<c r="B{r}"><v>102400</v></c><c r="C{r}"><v>51200</v></c>{}{}</row>"#,
            inline(&format!("A{r}"), vm),
            inline(&format!("D{r}"), cluster),
            inline(&format!("E{r}"), dc)
        )
    };
    let sheet = format!(
        r#"{SHEET_HEAD}<row r="1">{head}</row>{}{}{SHEET_TAIL}"#,
        row(2, "web-01", &cluster, "DC1"),
        row(3, "web-02", "Prod", &datacenter)
    );
    let path = workbook_with(
        &dir,
        "cluster-300k.xlsx",
        Entry::stored("xl/worksheets/sheet1.xml", sheet.as_bytes()),
    );
    let inv = ok(&path);
    assert_eq!(inv.vms.len(), 2);
    assert_eq!(dsplan::ingest::MAX_NAME_CHARS, 256);
    assert_eq!(inv.vms[0].cluster.as_deref(), Some(&*"C".repeat(256)));
    assert_eq!(inv.vms[1].datacenter.as_deref(), Some(&*"D".repeat(256)));
    for (column, row, letter) in [("Cluster", 2, "C"), ("Datacenter", 3, "D")] {
        let w = (inv.warnings.iter())
            .find(|w| w.column.as_deref() == Some(column) && w.message.contains("are kept"))
            .unwrap_or_else(|| panic!("no clip warning on {column}: {:?}", inv.warnings));
        assert_eq!((w.sheet.as_deref(), w.row), (Some("vInfo"), Some(row)));
        assert!(
            w.message
                .starts_with("text of 300,000 characters; its first 256 are kept"),
            "{}",
            w.message
        );
        // The value quoted: its first 60 characters and its length.
        let quoted = format!("{}... (300,000 characters)", letter.repeat(60));
        assert_eq!(w.value.as_deref(), Some(&*quoted));
    }
    let bin = env!("CARGO_BIN_EXE_dsplan");
    // The JSON holds no copy of either name whole: it used to be about 11 copies of each
    // (330 MB for 30 million characters; 6.6 MB here), now well under 300,000 bytes.
    let json = Command::new(bin)
        .args(["plan", "--format", "json"])
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(
        json.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&json.stderr)
    );
    assert!(json.stdout.len() < 300_000, "{} bytes", json.stdout.len());
    // The workbook is written (it failed on Excel's 32,767-character limit).
    let out = dir.join("plan.xlsx");
    let o = Command::new(bin)
        .args(["plan", "--format", "xlsx", "-o"])
        .arg(&out)
        .arg(&path)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("Excel's limit"), "{stderr}");
    let bytes = std::fs::read(&out).unwrap();
    assert!(
        bytes.starts_with(b"PK\x03\x04") && bytes.len() < 300_000,
        "{} bytes",
        bytes.len()
    );
}

/// Round 4's `mem/sst-clone.xlsx` (`gen/make_sst_clone.py 200 5`): a 15 KB workbook whose
/// one 5,000,000-character shared string is the `Cluster` of 200 rows took 4,008 MiB to
/// plan, a copy per row. Scaled down to 1,000,000 characters, appended to the fixture's
/// shared strings (index 129, after its 129 strings) and used by 200 rows: a copy per row
/// would be 200 x 1,000,000 bytes = 191 MiB; clipped where it is read, each row keeps its
/// first 256 characters, so the read peaks at a few copies of the one string.
#[test]
fn a_long_shared_string_used_by_every_row_costs_no_copy_per_row() {
    let dir = scratch("sst_clone");
    let mut entries = seed_entries();
    let f = std::fs::File::open(root().join("fixtures/small-estate.xlsx")).unwrap();
    let mut text = String::new();
    (zip::ZipArchive::new(f).unwrap())
        .by_name("xl/sharedStrings.xml")
        .unwrap()
        .read_to_string(&mut text)
        .unwrap();
    let sst = (entries.iter_mut())
        .find(|e| e.name == "xl/sharedStrings.xml")
        .unwrap();
    assert!(text.contains(r#"uniqueCount="129""#), "the fixture changed");
    let text = text.replace(
        "</sst>",
        &format!("<si><t>{}</t></si></sst>", "C".repeat(1_000_000)),
    );
    let text = text.replace(r#"uniqueCount="129""#, r#"uniqueCount="130""#);
    *sst = Entry::stored("xl/sharedStrings.xml", text.as_bytes());
    let header = format!(
        r#"<row r="1">{}{}{}</row>"#,
        inline("A1", "VM"),
        inline("B1", "Provisioned MiB"),
        inline("C1", "Cluster")
    );
    let rows: String = (2..=201)
        .map(|r| {
            format!(
                r#"<row r="{r}">{}<c r="B{r}"><v>1024</v></c><c r="C{r}" t="s"><v>129</v></c></row>"#,
                inline(&format!("A{r}"), &format!("vm-{r}"))
            )
        })
        .collect();
    let sheet = format!("{SHEET_HEAD}{header}{rows}{SHEET_TAIL}");
    let slot = (entries.iter_mut())
        .find(|e| e.name == "xl/worksheets/sheet1.xml")
        .unwrap();
    *slot = Entry::stored("xl/worksheets/sheet1.xml", sheet.as_bytes());
    let path = dir.join("sst-clone.xlsx");
    write_zip(&path, &entries);
    let (inv, heap) = peak_heap(|| ok(&path));
    assert_eq!(inv.vms.len(), 200);
    let kept = "C".repeat(256);
    assert!(
        inv.vms
            .iter()
            .all(|vm| vm.cluster.as_deref() == Some(&*kept))
    );
    // One cause: the first 5 warnings kept, the other 195 counted on the last.
    let clipped: Vec<_> = (inv.warnings.iter())
        .filter(|w| {
            w.message
                .starts_with("text of 1,000,000 characters; its first 256")
        })
        .collect();
    assert_eq!(clipped.len(), 5);
    assert_eq!(clipped.iter().map(|w| 1 + w.more_alike).sum::<usize>(), 200);
    assert!(heap < 24 * MIB, "read peak {heap} bytes");
}

#[test]
fn deeply_nested_xml_is_a_clear_answer() {
    let dir = scratch("nested");
    let depth = 100_000;
    let rows = format!(
        r#"<row r="2">{}{}</row>"#,
        "<x>".repeat(depth),
        "</x>".repeat(depth)
    );
    let path = workbook_with(
        &dir,
        "nested.xlsx",
        Entry::stored("xl/worksheets/sheet1.xml", &vinfo_sheet(&rows)),
    );
    // Unknown elements are skipped by the streaming reader (no recursion): the sheet has no
    // data row, and the other sheets of the fixture still read.
    let (inv, heap) = peak_heap(|| ok(&path));
    assert_eq!(inv.vms.len(), 0);
    assert!(heap < 64 * MIB, "{heap} bytes of heap");
}

#[test]
fn xlsx_header_of_a_million_cells_is_refused_at_column_xfd() {
    let dir = scratch("wide_xlsx");
    // Cells without `r` take the next column: the 16,385th header cell is column XFE.
    let unit = br#"<c t="inlineStr"><is><t>h</t></is></c>"#;
    let head = format!(r#"{SHEET_HEAD}<row r="1">{}"#, inline("A1", "VM"));
    let part = periodic(
        "xl/worksheets/sheet1.xml",
        head.as_bytes(),
        unit,
        1_000_000 * unit.len() as u64,
        b"</row></sheetData></worksheet>",
    );
    let path = workbook_with(&dir, "wide.xlsx", part);
    let (_, heap) = peak_heap(|| input_error(&path, &["[vInfo]", "column 'XFE'", "16,384"]));
    assert!(heap < 64 * MIB, "{heap} bytes of heap");
}

#[test]
fn cell_references_past_xfd1048576_are_refused() {
    let dir = scratch("refs");
    for (reference, file) in [
        ("XFE1", "xfe.xlsx"),
        ("A1048577", "row.xlsx"),
        ("A99999999999", "rowovf.xlsx"),
    ] {
        let rows = format!(r#"<row r="2">{}</row>"#, inline(reference, "x"));
        let path = workbook_with(
            &dir,
            file,
            Entry::stored("xl/worksheets/sheet1.xml", &vinfo_sheet(&rows)),
        );
        input_error(&path, &["[vInfo]", reference, "XFD1048576"]);
    }
}

#[test]
fn overflowing_reference_past_the_checked_head_is_a_clear_answer() {
    let dir = scratch("deep_ref");
    // 100 KiB of ordinary rows push the bad reference past the 64 KiB the package check
    // reads; calamine then wraps it (release) or panics on overflow (debug, caught).
    let mut rows = String::new();
    for r in 2..1200 {
        rows.push_str(&format!(
            r#"<row r="{r}">{}<c r="B{r}"><v>1</v></c></row>"#,
            inline(&format!("A{r}"), &format!("vm{r}"))
        ));
    }
    rows.push_str(&format!(
        r#"<row r="1200">{}</row>"#,
        inline("ZZZZZZZZ1200", "x")
    ));
    let path = workbook_with(
        &dir,
        "deep.xlsx",
        Entry::stored("xl/worksheets/sheet1.xml", &vinfo_sheet(&rows)),
    );
    match read_inputs(&[&path]) {
        Ok(inv) => assert_eq!(inv.vms.len(), 1198),
        Err(e) => {
            let msg = e.to_string();
            assert_eq!(dsplan::Error::from(e).kind(), ErrorKind::Input);
            assert!(
                msg.contains("deep.xlsx") && msg.contains("[vInfo]"),
                "{msg}"
            );
        }
    }
}

#[test]
fn broken_sheet_xml() {
    let dir = scratch("broken_xml");
    let mut xml =
        vinfo_sheet(r#"<row r="2"><c r="A2" t="inlineStr"><is><t>vm1</t></is></c></row>"#);
    xml.truncate(xml.len() - 40);
    xml.extend_from_slice(b"<c r=\"B2\" <<<");
    let path = workbook_with(
        &dir,
        "broken.xlsx",
        Entry::stored("xl/worksheets/sheet1.xml", &xml),
    );
    input_error(&path, &["[vInfo]"]);
}

/// A vInfo row of `web-01` whose cells come out of order: the later cell would replace the
/// earlier value (before: `web-01` became the VM `poweredOn`).
#[test]
fn cells_out_of_order_are_refused_with_both_references() {
    let dir = scratch("out_of_order");
    let num = |r: &str, v: &str| format!(r#"<c r="{r}"><v>{v}</v></c>"#);
    for (name, rows, what) in [
        // A second A2 after B2.
        (
            "second_a2.xlsx",
            format!(
                r#"<row r="2">{}{}{}</row>"#,
                inline("A2", "web-01"),
                num("B2", "100"),
                inline("A2", "poweredOn")
            ),
            "cells out of order: A2 after B2",
        ),
        // The same reference twice in a row.
        (
            "repeated_a2.xlsx",
            format!(
                r#"<row r="2">{}{}</row>"#,
                inline("A2", "web-01"),
                inline("A2", "poweredOn")
            ),
            "cells out of order: A2 after A2",
        ),
        // Row 3, then row 2 again.
        (
            "row_backwards.xlsx",
            format!(
                r#"<row r="3">{}</row><row r="2">{}</row>"#,
                inline("A3", "web-01"),
                inline("A2", "poweredOn")
            ),
            "cells out of order: A2 after A3",
        ),
    ] {
        let path = workbook_with(
            &dir,
            name,
            Entry::stored("xl/worksheets/sheet1.xml", &vinfo_sheet(&rows)),
        );
        input_error(&path, &["[vInfo]", what]);
    }
    // In order (B2 after A2, then row 3) the same cells are read: two VMs.
    let rows = format!(
        r#"<row r="2">{}{}</row><row r="3">{}</row>"#,
        inline("A2", "web-01"),
        num("B2", "100"),
        inline("A3", "web-02")
    );
    let path = workbook_with(
        &dir,
        "in_order.xlsx",
        Entry::stored("xl/worksheets/sheet1.xml", &vinfo_sheet(&rows)),
    );
    let names: Vec<String> = ok(&path).vms.into_iter().map(|v| v.name).collect();
    assert_eq!(names, ["web-01", "web-02"]);
}

/// A workbook whose sheets use shared strings (`t="s"`) but that lacks
/// `xl/sharedStrings.xml` is said to lack it (before: "row 1: broken sheet data after this
/// row (Cell string index not found ...)").
#[test]
fn missing_shared_strings_part_is_named() {
    let dir = scratch("no_shared_strings");
    let entries: Vec<Entry> = seed_entries()
        .into_iter()
        .filter(|e| e.name != "xl/sharedStrings.xml")
        .collect();
    let path = dir.join("no_sst.xlsx");
    write_zip(&path, &entries);
    let msg = input_error(
        &path,
        &["lacks its shared-strings part", "xl/sharedStrings.xml"],
    );
    assert!(!msg.contains("broken sheet data"), "{msg}");
    // With the part present, an index past its table says so (not "broken sheet data").
    let rows = r#"<row r="2"><c r="A2" t="s"><v>99999</v></c></row>"#;
    let path = workbook_with(
        &dir,
        "index_past.xlsx",
        Entry::stored("xl/worksheets/sheet1.xml", &vinfo_sheet(rows)),
    );
    // The cell is named: A2, the first cell after the header (row 1).
    let msg = input_error(
        &path,
        &[
            "[vInfo] row 2 column 'A'",
            "cell vInfo!A2 cannot be read",
            "does not hold",
        ],
    );
    assert!(!msg.contains("broken sheet data"), "{msg}");
    assert!(!msg.contains("after this row"), "{msg}");
}

/// A numeric cell whose value is not a number (`<v>0x10</v>`, round-4 `msg/cells.xlsx`)
/// typed `t="n"` is named by sheet and reference, from a file and from an upload (before:
/// "row 3: broken sheet data after this row (Parse float error ...)", the row of the last
/// cell read).
#[test]
fn a_cell_the_reader_cannot_read_is_named() {
    let dir = scratch("bad_cell");
    let num = |r: &str, v: &str| format!(r#"<c r="{r}" t="n"><v>{v}</v></c>"#);
    // Rows 2 and 3 read whole; in row 4 A4 reads and B4 does not: the cell after A4.
    let rows = format!(
        r#"<row r="2">{}{}</row><row r="3">{}{}</row><row r="4">{}{}</row>"#,
        inline("A2", "web-01"),
        num("B2", "100"),
        inline("A3", "web-02"),
        num("B3", "200"),
        inline("A4", "web-03"),
        num("B4", "0x10"),
    );
    let path = workbook_with(
        &dir,
        "hex.xlsx",
        Entry::stored("xl/worksheets/sheet1.xml", &vinfo_sheet(&rows)),
    );
    let msg = input_error(
        &path,
        &[
            "[vInfo] row 4 column 'B'",
            "cell vInfo!B4 cannot be read",
            "float",
        ],
    );
    assert!(!msg.contains("after this row"), "{msg}");
    // The same workbook as an upload (bytes in memory) names the same cell.
    let bytes = std::fs::read(&path).unwrap();
    let err = dsplan::ingest::read_input_bytes("hex.xlsx", &bytes).unwrap_err();
    let msg = err.to_string();
    assert!(msg.contains("cell vInfo!B4 cannot be read"), "{msg}");
    // The first cell of the sheet (A1, the header's) is bad: nothing was read before it.
    let sheet = format!(
        "{SHEET_HEAD}<row r=\"1\">{}{}</row>{SHEET_TAIL}",
        num("A1", "0x10"),
        inline("B1", "VM")
    );
    let path = workbook_with(
        &dir,
        "hex_a1.xlsx",
        Entry::stored("xl/worksheets/sheet1.xml", sheet.as_bytes()),
    );
    input_error(
        &path,
        &["[vInfo] row 1 column 'A'", "cell vInfo!A1 cannot be read"],
    );
}

// ---------------------------------------------------------------------------------------
// The reproducers of ../shared/fuzz-findings (the small ones, in fixtures/hostile).

#[test]
fn fuzz_reproducers_are_refused_with_the_reason() {
    let cases: [(&str, &[&str]); 9] = [
        (
            "bigcol-ZZZZZZ.xlsx",
            &["[vInfo]", "'ZZZZZZ1'", "XFD1048576"],
        ),
        (
            "header-at-column-FXSHRXV-alloc-abort.xlsx",
            &["[vInfo]", "'FXSHRXV1'"],
        ),
        (
            "calamine-cell-ref-overflow-vm-header.xlsx",
            &["[vInfo]", "'ZZZZZZZ1'"],
        ),
        (
            "calamine-dimension-ref-overflow.xlsx",
            &["[vInfo]", "'ZZZZZZZZ9'"],
        ),
        (
            "xlsx_sheet_xml-calamine-dimension-ref-mul-overflow.min.xlsx",
            &["[vInfo]", "'Arksheem='"],
        ),
        (
            "xlsx_sheet_xml-column_slots-huge-alloc.min.xlsx",
            &["[vInfo]", "'Edatacenter1'"],
        ),
        (
            "sst-count-2p31.xlsx",
            &["sharedStrings.xml", "uniqueCount=\"2147483648\""],
        ),
        (
            "sst-count-2p64m1.xlsx",
            &["sharedStrings.xml", "18446744073709551615"],
        ),
        (
            "xlsx_parts-sst-uniqueCount-reserve.min.xlsx",
            &["sharedStrings.xml", "at most 16"],
        ),
    ];
    for (file, what) in cases {
        let path = root().join("fixtures/hostile").join(file);
        let (_, heap) = peak_heap(|| input_error(&path, what));
        assert!(heap < 16 * MIB, "{file}: {heap} bytes of heap");
    }
}

// ---------------------------------------------------------------------------------------
// CSV.

/// `n` bytes of `fill` on one line after `head`, then `tail`.
fn long_line(head: &[u8], fill: &[u8], n: usize, tail: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(head.len() + n + tail.len());
    out.extend_from_slice(head);
    while out.len() < head.len() + n {
        out.extend_from_slice(fill);
    }
    out.extend_from_slice(tail);
    out
}

#[test]
fn hundred_mb_single_line_csvs_stop_at_16_mib() {
    let dir = scratch("csv_100mb");
    let cases = [
        // ~50 million fields on one line.
        ("fields.csv", long_line(b"VM,", b"h,", 100_000_000, b"\n")),
        // One 100 MB header field.
        (
            "field.csv",
            long_line(b"VM,Provisioned MiB,", b"x", 100_000_000, b"\nvm1,1,2\n"),
        ),
        // One 100 MB number cell.
        (
            "number.csv",
            long_line(b"VM,Provisioned MiB\nvm1,", b"9", 100_000_000, b"\n"),
        ),
    ];
    for (name, bytes) in cases {
        let path = csv(&dir, name, &bytes);
        drop(bytes);
        let (msg, heap) = peak_heap(|| input_error(&path, &["[vInfo]", "longer than 16 MiB"]));
        // The CSV parser holds at most one 16 MiB line (and its field ends).
        assert!(heap < 128 * MIB, "{name}: {heap} bytes of heap: {msg}");
    }
}

#[test]
fn csv_header_of_a_million_columns() {
    let dir = scratch("csv_wide");
    let path = csv(
        &dir,
        "wide.csv",
        &long_line(b"VM", b",h", 2_000_000, b"\nvm1\n"),
    );
    input_error(&path, &["[vInfo]", "1,000,001 fields", "16,384"]);
}

#[test]
fn one_mib_number_cell_in_csv_is_quoted_short() {
    let dir = scratch("csv_long_cell");
    let path = csv(
        &dir,
        "cell.csv",
        &long_line(b"VM,Provisioned MiB\nvm1,", b"9", MIB, b"\n"),
    );
    let inv = ok(&path);
    let w = warned(&inv, "not a number");
    assert_eq!(
        w.value.as_deref(),
        Some(format!("{}... (1,048,576 characters)", "9".repeat(60)).as_str())
    );
}

#[test]
fn nan_inf_and_1e308_text() {
    let dir = scratch("csv_nan");
    let path = csv(
        &dir,
        "nan.csv",
        b"VM,Provisioned MiB\nvm1,NaN\nvm2,inf\nvm3,-Infinity\nvm4,1e308\nvm5,1e309\n",
    );
    let inv = ok(&path);
    // NaN, inf, -Infinity and 1e309 (overflows to inf) are not finite: four warnings and
    // unknown sizes; 1e308 is a finite number and is read as it is.
    let not_numbers: Vec<_> = inv
        .warnings
        .iter()
        .filter(|w| w.message.contains("not a number"))
        .collect();
    assert_eq!(not_numbers.len(), 4, "{:?}", inv.warnings);
    let vm4 = inv.vms.iter().find(|v| v.name == "vm4").unwrap();
    assert_eq!(vm4.provisioned_mib, Some(1e308));
    let vm1 = inv.vms.iter().find(|v| v.name == "vm1").unwrap();
    assert_eq!(vm1.provisioned_mib, None);
}

#[test]
fn negative_sizes() {
    let dir = scratch("csv_negative");
    let path = csv(&dir, "neg.csv", b"VM,Provisioned MiB\nvm1,-1024\n");
    let inv = ok(&path);
    warned(&inv, "negative value");
    assert_eq!(inv.vms[0].provisioned_mib, None);
}

#[test]
fn windows_1252_and_utf16_csv() {
    let dir = scratch("csv_encodings");
    let path = csv(
        &dir,
        "cp1252.csv",
        b"VM,Provisioned MiB\nserveur-\xe9t\xe9,1024\n",
    );
    assert_eq!(ok(&path).vms[0].name, "serveur-été");
    let text = "VM,Provisioned MiB\nvm-ü,2048\n";
    let mut le = vec![0xFF, 0xFE];
    le.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
    assert_eq!(ok(&csv(&dir, "utf16le.csv", &le)).vms[0].name, "vm-ü");
    let mut be = vec![0xFE, 0xFF];
    be.extend(text.encode_utf16().flat_map(u16::to_be_bytes));
    assert_eq!(ok(&csv(&dir, "utf16be.csv", &be)).vms[0].name, "vm-ü");
    // UTF-16 without a byte-order mark has NUL bytes: binary, not a CSV.
    let bare: Vec<u8> = text.encode_utf16().flat_map(u16::to_le_bytes).collect();
    input_error(&csv(&dir, "utf16bare.csv", &bare), &["binary data"]);
}

#[test]
fn mixed_delimiters_give_a_ragged_row() {
    let dir = scratch("csv_mixed");
    // The header says ';' (1 of them, no ','), the row uses ',': 1 field where 2 are expected.
    let path = csv(&dir, "mixed.csv", b"VM;Provisioned MiB\nvm1,1024\n");
    input_error(
        &path,
        &[
            "[vInfo] row 2",
            "ragged row: 1 fields where the header has 2",
        ],
    );
}

#[test]
fn duplicate_headers_are_named() {
    let dir = scratch("csv_dup");
    let path = csv(&dir, "dup.csv", b"VM,VM,Provisioned MiB\nvm1,vm1b,1024\n");
    let inv = ok(&path);
    warned(&inv, "header 'VM' appears in 2 columns (A, B)");
    assert_eq!(inv.vms[0].name, "vm1");
}

#[test]
fn empty_and_binary_csv() {
    let dir = scratch("csv_empty");
    input_error(&csv(&dir, "empty.csv", b""), &["empty"]);
    input_error(&csv(&dir, "blank.csv", b"\n \n\t\n"), &["empty"]);
    input_error(&csv(&dir, "bin.csv", b"VM\x00\x01\x02"), &["binary data"]);
}

#[test]
fn missing_required_column_quotes_long_headers_short() {
    let dir = scratch("csv_missing");
    let long = "h".repeat(10_000);
    let path = csv(&dir, "nohdr.csv", format!("{long},Size\nx,1\n").as_bytes());
    let msg = input_error(&path, &["required column 'VM'", "(10,000 characters)"]);
    assert!(msg.len() < 1_000, "{msg}");
}

#[test]
fn csv_folder_with_a_hostile_tab() {
    let dir = scratch("csv_folder");
    std::fs::write(
        dir.join("RVTools_tabvInfo.csv"),
        long_line(b"VM,", b"h,", 20 << 20, b"\n"),
    )
    .unwrap();
    let err = read_inputs(&[&dir]).unwrap_err();
    let msg = err.to_string();
    assert_eq!(dsplan::Error::from(err).kind(), ErrorKind::Input);
    assert!(
        msg.contains("RVTools_tabvInfo.csv") && msg.contains("longer than 16 MiB"),
        "{msg}"
    );
}

#[test]
fn perf_csv_with_a_hostile_line() {
    let dir = scratch("perf_line");
    let path = csv(
        &dir,
        "perf.csv",
        &long_line(b"VM,IOPS\n", b"9", 20 << 20, b"\n"),
    );
    let err = read_perf_csv(&path, &Inventory::default()).unwrap_err();
    let msg = err.to_string();
    assert_eq!(dsplan::Error::from(err).kind(), ErrorKind::Input);
    assert!(
        msg.contains("perf.csv") && msg.contains("longer than 16 MiB"),
        "{msg}"
    );
}

// ---------------------------------------------------------------------------------------
// Through the command: exit 0 or 1, never 101 (panic) or 134 (abort), bounded RSS.

/// Runs `dsplan inventory FILE`; the exit code and, under `/usr/bin/time` when the machine
/// has it, the peak RSS in KiB.
fn run_inventory(path: &Path) -> (i32, Option<u64>) {
    let bin = env!("CARGO_BIN_EXE_dsplan");
    let time = Path::new("/usr/bin/time");
    let out = if time.exists() {
        Command::new(time)
            .args(["-f", "maxrss_kib=%M", bin, "inventory"])
            .arg(path)
            .output()
    } else {
        Command::new(bin).arg("inventory").arg(path).output()
    }
    .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    let rss = stderr
        .lines()
        .find_map(|l| l.strip_prefix("maxrss_kib="))
        .and_then(|v| v.trim().parse().ok());
    // /usr/bin/time exits with the child's code.
    (out.status.code().unwrap_or(-1), rss)
}

fn assert_bounded(path: &Path) {
    let (code, rss) = run_inventory(path);
    assert!(code == 0 || code == 1, "{}: exit {code}", path.display());
    match rss {
        Some(kib) => assert!(kib < 200 * 1024, "{}: {kib} KiB peak RSS", path.display()),
        None => println!("skipped the RSS check: no /usr/bin/time"),
    }
}

#[test]
fn command_on_hostile_fixtures_exits_1_with_bounded_rss() {
    for entry in std::fs::read_dir(root().join("fixtures/hostile")).unwrap() {
        let path = entry.unwrap().path();
        let (code, _) = run_inventory(&path);
        assert_eq!(code, 1, "{}", path.display());
        assert_bounded(&path);
    }
}

#[test]
fn shared_reproducers_exit_0_or_1() {
    let dir = root().join("../shared/fuzz-findings");
    if !dir.is_dir() {
        println!("skipped: ../shared/fuzz-findings not found");
        return;
    }
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "xlsx") {
            assert_bounded(&path);
        }
    }
}

#[test]
fn a_huge_in_use_figure_is_shown_short_in_its_warning() {
    let dir = scratch("huge_in_use");
    let csv = dir.join("vinfo.csv");
    // In Use 1e300 MiB against 102,400 provisioned: the warning shows the cell as read in
    // short form, not its 301 digits.
    std::fs::write(
        &csv,
        "VM,Powerstate,Provisioned MiB,In Use MiB,Cluster,Host\n\
         web-01,poweredOn,102400,1e300,c1,esx1\n",
    )
    .unwrap();
    let inv = read_inputs(&[csv]).unwrap();
    let w = inv
        .warnings
        .iter()
        .find(|w| w.message.contains("exceeds Provisioned"))
        .unwrap();
    assert_eq!(
        w.message,
        "VM 'web-01': In Use (1e300 MiB) exceeds Provisioned (102400 MiB)"
    );
    assert!(w.to_string().len() < 200, "{w}");
    let _ = std::fs::remove_dir_all(dir);
}
