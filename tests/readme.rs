//! README.md's examples are the binary's own output: every output block of README.md is
//! compared with the stdout of the commands that produce it.
//!
//! **Which blocks are checked.** README's fenced blocks are of three kinds:
//! - a ```` ```sh ```` block holds commands, one a line (`\` continues a line; blank lines and
//!   `#` lines are skipped). It is not run by itself: only as the producer of an output block.
//!   So the command synopsis under "Commands", `dsplan serve` and the price-file copy are
//!   never run; a block whose commands include `dsplan serve` is never run either (the
//!   server does not return) and is reported as skipped;
//! - an output block (any other language: `text`, `json`, `markdown`, ...) is the stdout of
//!   the commands of the ```` ```sh ```` block right before it (only blank lines between),
//!   or, where prose separates it from its command, of the command named by the HTML
//!   comment on the line before it: `<!-- output of: COMMAND -->`;
//! - any other block (Rust code, a sample file) carries `<!-- not output -->` on the line
//!   before it. A block that is none of these fails the test, naming its line, so a new
//!   output block cannot slip in unchecked.
//!
//! **How a block is run.** Each command runs through `sh -c` (with `LC_ALL=C`, so `ls`
//! sorts alike everywhere), in a fresh directory under `CARGO_TARGET_TMPDIR` that links
//! every top-level entry of the repository (`fixtures/`, `data/`, ...) and has a
//! `../shared` linked to the repository's `../shared`, so README's commands run as a user
//! types them from the repository root and what they write (`-o plan.xlsx`, `--charts
//! DIR`) stays in that directory. `cargo run --release --`, `target/release/dsplan` and a
//! leading `dsplan` are replaced by the binary under test (`CARGO_BIN_EXE_dsplan`, the
//! debug build under `cargo test`). A command that exits non-zero fails its block. The
//! block is compared with the commands' stdout, one after the other; a block with lines
//! starting `$ ` is a transcript: each command that prints something is shown as `$
//! COMMAND` (as README writes it) followed by its output, and commands printing nothing
//! (`> /dev/null`) are left out.
//!
//! **Skips.** A block whose commands use a tool that may be absent (`jq`, `unzip`:
//! [`OPTIONAL_TOOLS`]) prints `skipped block at README.md line N: jq not found` and passes
//! when the tool is not on `PATH` (`.ci/run` installs them); a block reading `../shared`
//! prints `skipped: ../shared not found` and passes when the real exports are absent.
//!
//! **Cuts.** A line `...` (leading spaces allowed, to follow a JSON block's indentation)
//! stands for any number of output lines, zero included; every other line must match
//! exactly and in order: the lines before the first cut are the output's first lines, the
//! lines after the last cut its last lines, and each run between cuts must occur in between,
//! in order. A block without `...` is the whole output. README blocks hold only
//! deterministic output (no temporary paths or timings).
//!
//! **Line counts.** Where the paragraph above a one-command ```` ```sh ```` block states
//! "N lines" once ("One cluster, 532 lines:"), N must be the number of lines that command
//! prints (the whole output, however the block is cut).
//!
//! **Failures** name the block's README line, the command, the first differing line and a
//! unified-style diff of the first differing lines (`-` README, `+` output); the whole output
//! is written to `target/tmp/readme-output/line-N.txt`.
//!
//! **Bless.** `DSPLAN_BLESS_README=1 cargo test --test readme` rewrites every block that
//! differs from its output, keeping its cuts: the lines before the first `...` and after the
//! last one are re-taken from the output at the same positions (head and tail of the same
//! length), and the runs between cuts are kept when they still occur in order. A block whose
//! runs between cuts no longer occur (or whose output is shorter than its head and tail) is
//! left unchanged and reported for a human to edit; the test then fails. Bless also
//! corrects the line counts the prose states. Read `git diff README.md` after blessing, and
//! keep the other figures the prose quotes in step with the blocks.

// Runs the `dsplan` binary, which the `cli` feature builds.
#![cfg(feature = "cli")]
#![cfg(unix)]

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

include!("support/command.rs");

/// Tools README's commands may use that a machine may lack; their blocks skip without them.
const OPTIONAL_TOOLS: &[&str] = &["jq", "unzip"];

/// The environment variable that turns on bless mode.
const BLESS_VAR: &str = "DSPLAN_BLESS_README";

/// The marker of a block that is neither a command nor an output.
const NOT_OUTPUT: &str = "<!-- not output -->";

/// The start of the marker naming an output block's command.
const OUTPUT_OF: &str = "<!-- output of:";

/// Lines of context and of each side a failure's diff shows.
const DIFF_LINES: usize = 10;

/// A fenced block of a Markdown file.
#[derive(Debug, Clone)]
struct Block {
    /// 1-based line of the opening fence.
    fence_line: usize,
    /// The first word of the info string (`sh`, `text`, ...), or empty.
    lang: String,
    /// The lines between the fences.
    body: Vec<String>,
    /// The last non-blank line before the opening fence, trimmed.
    before: Option<String>,
    /// Whether only blank lines separate the opening fence from the previous block's
    /// closing fence.
    follows_block: bool,
}

impl Block {
    /// 0-based index, in the file's lines, of the first line between the fences.
    fn body_start(&self) -> usize {
        self.fence_line
    }
}

/// What a block is for the check.
#[derive(Debug, PartialEq)]
enum Role {
    /// A ```` ```sh ```` block.
    Commands,
    /// Marked `<!-- not output -->`.
    NotOutput,
    /// An output block and the commands producing it.
    Output(Vec<String>),
    /// Neither a command, nor marked, nor after a command block: an error.
    Unmarked,
}

/// The fenced blocks of `text`, or the line of an unclosed fence.
fn parse_blocks(text: &str) -> Result<Vec<Block>, String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut blocks = Vec::new();
    let mut before: Option<String> = None;
    let mut last_was_fence = false;
    let mut i = 0;
    while i < lines.len() {
        let Some((fence, info)) = opening_fence(lines[i]) else {
            if !lines[i].trim().is_empty() {
                before = Some(lines[i].trim().to_string());
                last_was_fence = false;
            }
            i += 1;
            continue;
        };
        let close = (i + 1..lines.len())
            .find(|&j| is_closing_fence(lines[j], &fence))
            .ok_or_else(|| format!("README.md line {}: fence never closed", i + 1))?;
        blocks.push(Block {
            fence_line: i + 1,
            lang: info.split_whitespace().next().unwrap_or("").to_string(),
            body: lines[i + 1..close].iter().map(|l| l.to_string()).collect(),
            before: before.take(),
            follows_block: last_was_fence,
        });
        last_was_fence = true;
        i = close + 1;
    }
    Ok(blocks)
}

/// The fence (``` or ~~~, at least 3) and info string of an opening fence line.
fn opening_fence(line: &str) -> Option<(String, String)> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    let rest = &line[indent..];
    let ch = rest.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let fence: String = rest.chars().take_while(|c| *c == ch).collect();
    (indent <= 3 && fence.len() >= 3).then(|| (fence.clone(), rest[fence.len()..].to_string()))
}

/// Whether `line` closes a block opened by `fence`.
fn is_closing_fence(line: &str, fence: &str) -> bool {
    let t = line.trim();
    let ch = fence.chars().next().unwrap_or('`');
    t.len() >= fence.len() && t.chars().all(|c| c == ch)
}

/// The commands of a ```` ```sh ```` block: `\` continuations joined, blank and `#` lines
/// left out.
fn commands_of(body: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut pending = String::new();
    for line in body {
        let line = line.trim();
        if let Some(part) = line.strip_suffix('\\') {
            pending.push_str(part);
            continue;
        }
        pending.push_str(line);
        let command = std::mem::take(&mut pending);
        if !command.is_empty() && !command.starts_with('#') {
            out.push(command);
        }
    }
    out
}

/// The role of `blocks[i]`.
fn role(blocks: &[Block], i: usize) -> Role {
    let b = &blocks[i];
    if b.lang == "sh" {
        return Role::Commands;
    }
    match b.before.as_deref() {
        Some(NOT_OUTPUT) => return Role::NotOutput,
        Some(m) if m.starts_with(OUTPUT_OF) && m.ends_with("-->") => {
            let command = m[OUTPUT_OF.len()..m.len() - 3].trim();
            return Role::Output(vec![command.to_string()]);
        }
        _ => {}
    }
    match i.checked_sub(1).map(|p| &blocks[p]) {
        Some(prev) if b.follows_block && prev.lang == "sh" => Role::Output(commands_of(&prev.body)),
        _ => Role::Unmarked,
    }
}

/// `command` with `cargo run --release --`, `target/release/dsplan` and a leading `dsplan`
/// replaced by `bin`, shell-quoted; one pass, so `bin` itself is never rewritten.
fn rewrite(command: &str, bin: &str) -> String {
    let quoted = format!("'{}'", bin.replace('\'', r"'\''"));
    let mut out = String::new();
    let mut rest = command;
    if let Some(tail) = rest.strip_prefix("dsplan")
        && (tail.is_empty() || tail.starts_with(' '))
    {
        out.push_str(&quoted);
        rest = tail;
    }
    loop {
        let next = ["cargo run --release --", "target/release/dsplan"]
            .iter()
            .filter_map(|p| rest.find(p).map(|at| (at, p.len())))
            .min();
        let Some((at, len)) = next else {
            out.push_str(rest);
            return out;
        };
        out.push_str(&rest[..at]);
        out.push_str(&quoted);
        rest = &rest[at + len..];
    }
}

/// Why the block of `commands` cannot run here, if it cannot.
fn skip_reason(commands: &[String], shared_exists: bool) -> Option<String> {
    for c in commands {
        let words: Vec<&str> = c
            .split(|ch: char| ch.is_whitespace() || "|;&()".contains(ch))
            .collect();
        if words.windows(2).any(|w| w == ["dsplan", "serve"]) {
            return Some("`dsplan serve` is not run".into());
        }
        for tool in OPTIONAL_TOOLS {
            if words.contains(tool) && !on_path(tool) {
                return Some(format!("{tool} not found"));
            }
        }
        if c.contains("../shared") && !shared_exists {
            return Some("../shared not found".into());
        }
    }
    None
}

/// Whether an executable file `tool` is in a `PATH` directory.
fn on_path(tool: &str) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::env::var_os("PATH").is_some_and(|path| {
        std::env::split_paths(&path).any(|dir| {
            std::fs::metadata(dir.join(tool))
                .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
    })
}

/// A fresh directory `<tmp>/readme-N/dsplan` linking every top-level entry of the
/// repository but `target` and `.git`, beside `<tmp>/readme-N/shared` linking `../shared`
/// when it exists.
fn workdir(n: usize) -> PathBuf {
    let base = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("readme-{n}"));
    let _ = std::fs::remove_dir_all(&base);
    let work = base.join("dsplan");
    std::fs::create_dir_all(&work).unwrap();
    for entry in std::fs::read_dir(root()).unwrap() {
        let name = entry.unwrap().file_name();
        if name != "target" && name != ".git" {
            std::os::unix::fs::symlink(root().join(&name), work.join(&name)).unwrap();
        }
    }
    let shared = root().join("../shared");
    if shared.exists() {
        std::os::unix::fs::symlink(shared.canonicalize().unwrap(), base.join("shared")).unwrap();
    }
    work
}

/// Runs `commands` in `dir`: each command's stdout lines, or the failing command and its
/// stderr.
fn run_commands(commands: &[String], dir: &Path) -> Result<Vec<Vec<String>>, String> {
    let bin = env!("CARGO_BIN_EXE_dsplan");
    let mut outputs = Vec::new();
    for c in commands {
        let o = Command::new("sh")
            .arg("-c")
            .arg(rewrite(c, bin))
            .current_dir(dir)
            .env("LC_ALL", "C")
            .output()
            .map_err(|e| format!("`{c}` did not start: {e}"))?;
        if !o.status.success() {
            return Err(format!(
                "`{c}` failed ({}): {}",
                o.status,
                stderr(&o).trim_end()
            ));
        }
        let text = String::from_utf8_lossy(&o.stdout);
        outputs.push(text.lines().map(String::from).collect());
    }
    Ok(outputs)
}

/// The lines a block is compared with: the outputs one after the other, or, for a
/// transcript, `$ COMMAND` and its output for each command that printed something.
fn shown(commands: &[String], outputs: Vec<Vec<String>>, transcript: bool) -> Vec<String> {
    let mut lines = Vec::new();
    for (c, out) in commands.iter().zip(outputs) {
        if transcript && !out.is_empty() {
            lines.push(format!("$ {c}"));
        }
        lines.extend(out);
    }
    lines
}

/// Whether a block line is a cut.
fn is_cut(line: &str) -> bool {
    line.trim() == "..."
}

/// The runs of a block between its cuts, each with the block index of its first line:
/// one run when the block has no cut.
fn runs(expected: &[String]) -> Vec<(usize, &[String])> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, line) in expected.iter().enumerate() {
        if is_cut(line) {
            out.push((start, &expected[start..i]));
            start = i + 1;
        }
    }
    out.push((start, &expected[start..]));
    out
}

/// Where a block stops matching: its first differing line (block index) and the output
/// line it was compared with, and a sentence on what went wrong.
#[derive(Debug, PartialEq)]
struct Mismatch {
    block_at: usize,
    output_at: usize,
    what: String,
}

/// The index of the first differing line of `a` and `b`, if they differ.
fn first_difference(a: &[String], b: &[String]) -> Option<usize> {
    (0..a.len().max(b.len())).find(|&i| a.get(i) != b.get(i))
}

/// Where each run between cuts occurs in `window` (offsets), leftmost first, or the index
/// of the first run that does not occur and the offset where most of it matched.
fn place_middle(middle: &[(usize, &[String])], window: &[String]) -> Result<(), (usize, usize)> {
    let mut from = 0;
    for (k, (_, run)) in middle.iter().enumerate() {
        let found = (from..=window.len().saturating_sub(run.len()))
            .find(|&s| window.get(s..s + run.len()) == Some(run));
        match found {
            Some(s) => from = s + run.len(),
            None => {
                let agree = |s: usize| {
                    run.iter()
                        .zip(&window[s..])
                        .take_while(|(a, b)| a == b)
                        .count()
                };
                let best = (from..window.len()).max_by_key(|&s| (agree(s), usize::MAX - s));
                return Err((k, best.unwrap_or(from)));
            }
        }
    }
    Ok(())
}

/// Checks `actual` against the block `expected` (cuts included).
fn compare(expected: &[String], actual: &[String]) -> Result<(), Mismatch> {
    let runs = runs(expected);
    if runs.len() == 1 {
        return match first_difference(expected, actual) {
            None => Ok(()),
            Some(i) => Err(Mismatch {
                block_at: i,
                output_at: i,
                what: if expected.len() == actual.len() {
                    "a line differs (the block, without `...`, is the whole output)".into()
                } else {
                    format!(
                        "the block, without `...`, is the whole output: it has {} lines, the output {}",
                        expected.len(),
                        actual.len()
                    )
                },
            }),
        };
    }
    let (head, tail) = (runs[0].1, runs[runs.len() - 1]);
    if let Some(i) = first_difference(head, actual.get(..head.len()).unwrap_or(actual)) {
        let what = "the lines before the first `...` are not the output's first lines";
        return Err(Mismatch {
            block_at: i,
            output_at: i,
            what: what.into(),
        });
    }
    let tail_from = actual
        .len()
        .checked_sub(tail.1.len())
        .filter(|&s| s >= head.len());
    let Some(tail_from) = tail_from else {
        let what = format!(
            "the output has {} lines, fewer than the {} around the cuts",
            actual.len(),
            head.len() + tail.1.len()
        );
        return Err(Mismatch {
            block_at: tail.0,
            output_at: head.len(),
            what,
        });
    };
    if let Some(i) = first_difference(tail.1, &actual[tail_from..]) {
        let what = "the lines after the last `...` are not the output's last lines";
        return Err(Mismatch {
            block_at: tail.0 + i,
            output_at: tail_from + i,
            what: what.into(),
        });
    }
    let middle = &runs[1..runs.len() - 1];
    place_middle(middle, &actual[head.len()..tail_from]).map_err(|(k, s)| {
        let (at, run) = middle[k];
        let agree = run
            .iter()
            .zip(&actual[head.len() + s..])
            .take_while(|(a, b)| a == b)
            .count();
        Mismatch {
            block_at: at + agree,
            output_at: head.len() + s + agree,
            what: format!(
                "the {} lines between cuts from block line {} do not occur in the output in order \
                 (the diff shows where most of them matched)",
                run.len(),
                at + 1
            ),
        }
    })
}

/// The block rewritten from `actual`, keeping its cuts, or why it cannot be.
fn bless(expected: &[String], actual: &[String]) -> Result<Vec<String>, String> {
    let runs = runs(expected);
    if runs.len() == 1 {
        return Ok(actual.to_vec());
    }
    let (head, tail) = (runs[0].1.len(), runs[runs.len() - 1].1.len());
    if actual.len() < head + tail {
        return Err(format!(
            "the output has {} lines, fewer than the {head} before the first `...` and the {tail} after the last",
            actual.len()
        ));
    }
    let middle = &runs[1..runs.len() - 1];
    if let Err((k, _)) = place_middle(middle, &actual[head..actual.len() - tail]) {
        let (at, run) = middle[k];
        return Err(format!(
            "block lines {}..{} (between cuts) no longer occur in the output in order",
            at + 1,
            at + run.len()
        ));
    }
    let mut out = actual[..head].to_vec();
    // Each cut, then the run after it (but the tail, re-taken below).
    let cuts = expected.iter().filter(|l| is_cut(l));
    for (cut, (_, run)) in cuts.zip(&runs[1..]) {
        out.push(cut.clone());
        out.extend(run.iter().cloned());
    }
    out.truncate(out.len() - tail);
    out.extend(actual[actual.len() - tail..].iter().cloned());
    Ok(out)
}

/// A unified-style diff of `expected` from `e` and `actual` from `a`: a few lines of
/// context, then the next lines of each side diffed (longest common subsequence).
fn diff(expected: &[String], e: usize, actual: &[String], a: usize) -> String {
    let mut out = String::new();
    let context = e.min(a).min(2);
    for line in &expected[e - context..e] {
        let _ = writeln!(out, "  {line}");
    }
    // The README side stops at the next cut: the lines after it are matched elsewhere.
    let run_end = (e..expected.len())
        .find(|&i| is_cut(&expected[i]))
        .unwrap_or(expected.len());
    let x = &expected[e..(e + DIFF_LINES).min(run_end)];
    let y = &actual[a..(a + DIFF_LINES).min(actual.len())];
    // lcs[i][j]: the longest common subsequence of x[i..] and y[j..].
    let mut lcs = vec![vec![0usize; y.len() + 1]; x.len() + 1];
    for i in (0..x.len()).rev() {
        for j in (0..y.len()).rev() {
            lcs[i][j] = if x[i] == y[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    while i < x.len() || j < y.len() {
        if i < x.len() && j < y.len() && x[i] == y[j] {
            let _ = writeln!(out, "  {}", x[i]);
            (i, j) = (i + 1, j + 1);
        } else if j == y.len() || (i < x.len() && lcs[i + 1][j] >= lcs[i][j + 1]) {
            let _ = writeln!(out, "- {}", x[i]);
            i += 1;
        } else {
            let _ = writeln!(out, "+ {}", y[j]);
            j += 1;
        }
    }
    if e + DIFF_LINES < run_end || a + DIFF_LINES < actual.len() {
        out.push_str("  (diff cut here)\n");
    }
    out
}

/// Why an output block was not compared.
enum NotRun {
    /// Skipped, and why.
    Skipped(String),
    /// A command failed: the message.
    Failed(String),
}

/// The lines the output block `b` is compared with: its `commands` run in a fresh
/// directory (`n` numbers it).
fn output_of(b: &Block, commands: &[String], n: usize) -> Result<Vec<String>, NotRun> {
    let shared_exists = root().join("../shared").exists();
    if let Some(why) = skip_reason(commands, shared_exists) {
        return Err(NotRun::Skipped(why));
    }
    let dir = workdir(n);
    let outputs = run_commands(commands, &dir);
    let _ = std::fs::remove_dir_all(dir.parent().unwrap());
    let outputs =
        outputs.map_err(|e| NotRun::Failed(format!("README.md line {}: {e}", b.fence_line)))?;
    let transcript = b.body.iter().any(|l| l.starts_with("$ "));
    Ok(shown(commands, outputs, transcript))
}

/// Compares block `b` with `actual`: `Ok(None)` when it matches, `Ok(Some(body))` with
/// the blessed body in bless mode, or the failure message.
fn check_block(
    b: &Block,
    commands: &[String],
    actual: &[String],
    bless_mode: bool,
) -> Result<Option<Vec<String>>, String> {
    let Err(m) = compare(&b.body, actual) else {
        return Ok(None);
    };
    let saved = save_output(b.fence_line, actual);
    let report = format!(
        "README.md line {} (block line {}, output line {}): {}\n  command(s):\n    {}\n  \
         --- README.md\n  +++ output (whole output in {saved})\n{}",
        b.fence_line + 1 + m.block_at,
        m.block_at + 1,
        m.output_at + 1,
        m.what,
        commands.join("\n    "),
        diff(&b.body, m.block_at, actual, m.output_at)
    );
    if !bless_mode {
        return Err(report);
    }
    bless(&b.body, actual).map(Some).map_err(|why| {
        format!(
            "README.md line {}: cannot bless: {why}; edit the block by hand.\n{report}",
            b.fence_line
        )
    })
}

/// Writes a block's real output to `target/tmp/readme-output/line-N.txt`; its path.
fn save_output(fence_line: usize, actual: &[String]) -> String {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("readme-output");
    let path = dir.join(format!("line-{fence_line}.txt"));
    let written = std::fs::create_dir_all(&dir)
        .and_then(|()| std::fs::write(&path, actual.join("\n") + "\n"));
    match written {
        Ok(()) => path.display().to_string(),
        Err(e) => format!("(not written: {e})"),
    }
}

/// A line count the prose states for one command's output: the paragraph right above the
/// command block saying "N lines" once ("One cluster, 532 lines:"). The 0-based line it
/// is on and N.
fn stated_line_count(readme: &[&str], fence_line: usize) -> Option<(usize, usize)> {
    let blank = |i: &usize| readme[*i].trim().is_empty();
    let paragraph = (0..fence_line - 1)
        .rev()
        .skip_while(blank)
        .take_while(|i| !blank(i) && opening_fence(readme[*i]).is_none());
    let mut found = Vec::new();
    for i in paragraph {
        for (at, _) in readme[i].match_indices(" lines") {
            let digits = readme[i][..at]
                .rsplit(|c: char| !c.is_ascii_digit() && c != ',')
                .next()
                .unwrap_or("");
            if let Ok(n) = digits.replace(',', "").parse() {
                found.push((i, n));
            }
        }
    }
    (found.len() == 1).then(|| found[0])
}

/// `n` with its thousands grouped by commas, as README writes counts (1,263).
fn grouped(n: usize) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, d) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(d);
    }
    out
}

/// `text` with each blessed block's body and each corrected line count replaced.
fn rewrite_readme(
    text: &str,
    blessed: &[(&Block, Vec<String>)],
    counts: &[(usize, usize, usize)],
) -> String {
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    for &(i, stated, real) in counts {
        lines[i] = lines[i].replacen(
            &format!("{} lines", grouped(stated)),
            &format!("{} lines", grouped(real)),
            1,
        );
    }
    for (b, body) in blessed.iter().rev() {
        let start = b.body_start();
        lines.splice(start..start + b.body.len(), body.iter().cloned());
    }
    lines.join("\n") + "\n"
}

/// What the check of README.md found: failures, blessed blocks and corrected line counts.
#[derive(Default)]
struct Findings<'a> {
    failures: Vec<String>,
    blessed: Vec<(&'a Block, Vec<String>)>,
    /// 0-based README line, the count it states, the output's count.
    counts: Vec<(usize, usize, usize)>,
    checked: usize,
}

/// Checks (or blesses) every block of README.md.
fn check_readme<'a>(text: &str, blocks: &'a [Block], bless_mode: bool) -> Findings<'a> {
    let readme: Vec<&str> = text.lines().collect();
    let mut f = Findings::default();
    for (i, b) in blocks.iter().enumerate() {
        let commands = match role(blocks, i) {
            Role::Commands | Role::NotOutput => continue,
            Role::Unmarked => {
                f.failures.push(format!(
                    "README.md line {}: a ```{} block that is neither after a ```sh block nor marked: \
                     put `<!-- output of: COMMAND -->` or `{NOT_OUTPUT}` on the line before it",
                    b.fence_line, b.lang
                ));
                continue;
            }
            Role::Output(c) => c,
        };
        f.checked += 1;
        let actual = match output_of(b, &commands, i) {
            Ok(actual) => actual,
            Err(NotRun::Skipped(why)) if why == "../shared not found" => {
                println!(
                    "skipped: ../shared not found (block at README.md line {})",
                    b.fence_line
                );
                continue;
            }
            Err(NotRun::Skipped(why)) => {
                println!("skipped block at README.md line {}: {why}", b.fence_line);
                continue;
            }
            Err(NotRun::Failed(msg)) => {
                f.failures.push(msg);
                continue;
            }
        };
        match check_block(b, &commands, &actual, bless_mode) {
            Ok(None) => {}
            Ok(Some(body)) => {
                println!(
                    "blessed README.md line {}: {} lines -> {} lines",
                    b.fence_line,
                    b.body.len(),
                    body.len()
                );
                f.blessed.push((b, body));
            }
            Err(msg) => f.failures.push(msg),
        }
        if b.follows_block {
            let producer = &blocks[i - 1];
            check_stated_count(
                &readme,
                producer,
                &commands,
                actual.len(),
                bless_mode,
                &mut f,
            );
        }
    }
    f
}

/// Checks the line count the prose above a one-command block states for its output.
fn check_stated_count(
    readme: &[&str],
    command_block: &Block,
    commands: &[String],
    real: usize,
    bless_mode: bool,
    f: &mut Findings,
) {
    if command_block.lang != "sh" || commands.len() != 1 {
        return;
    }
    let Some((line, stated)) = stated_line_count(readme, command_block.fence_line) else {
        return;
    };
    if stated == real {
        return;
    }
    if bless_mode {
        println!(
            "blessed README.md line {}: {} lines -> {} lines (the prose's count)",
            line + 1,
            grouped(stated),
            grouped(real)
        );
        f.counts.push((line, stated, real));
    } else {
        f.failures.push(format!(
            "README.md line {}: the prose says {} lines, the output of `{}` has {}",
            line + 1,
            grouped(stated),
            commands[0],
            grouped(real)
        ));
    }
}

#[test]
fn readme_blocks_are_the_binarys_output() {
    let path = root().join("README.md");
    let text = std::fs::read_to_string(&path).unwrap();
    let blocks = parse_blocks(&text).unwrap_or_else(|e| panic!("{e}"));
    let bless_mode = std::env::var_os(BLESS_VAR).is_some_and(|v| v == "1");
    let f = check_readme(&text, &blocks, bless_mode);
    // The README shows many outputs; finding few means the parsing broke.
    assert!(
        f.checked >= 10,
        "only {} output blocks found in README.md",
        f.checked
    );
    if !f.blessed.is_empty() || !f.counts.is_empty() {
        std::fs::write(&path, rewrite_readme(&text, &f.blessed, &f.counts)).unwrap();
        println!(
            "README.md: {} block(s) and {} line count(s) rewritten; read `git diff README.md` \
             and update the figures the prose quotes",
            f.blessed.len(),
            f.counts.len()
        );
    }
    let next = if bless_mode {
        "The blocks above were left unchanged: edit them by hand (or move their cuts), then run again."
    } else {
        "To rewrite the blocks from the output (keeping their `...` cuts): \
         DSPLAN_BLESS_README=1 cargo test --test readme; then read `git diff README.md`."
    };
    assert!(
        f.failures.is_empty(),
        "{} README.md block(s) or count(s) differ from the binary's output:\n\n{}\n\n{next}",
        f.failures.len(),
        f.failures.join("\n\n")
    );
}

fn lines(s: &str) -> Vec<String> {
    s.lines().map(String::from).collect()
}

#[test]
fn blocks_take_their_commands_from_the_sh_block_or_the_comment() {
    // Five blocks: a sh block and its output (blank line between), an output separated by
    // prose and named by a comment, a marked Rust block, and an unmarked one after prose.
    let md = "intro\n```sh\na\n\nb \\\n  c\n# note\n```\n\n```text\nout\n```\n\
              prose\n<!-- output of: dsplan plan x -->\n```json\n{}\n```\n\
              <!-- not output -->\n```rust\nfn f() {}\n```\nmore\n~~~~text\n```\n~~~~\n";
    let blocks = parse_blocks(md).unwrap();
    assert_eq!(blocks.len(), 5);
    assert_eq!(
        blocks.iter().map(|b| b.fence_line).collect::<Vec<_>>(),
        [2, 10, 15, 19, 23]
    );
    assert_eq!(role(&blocks, 0), Role::Commands);
    // "b \" continued by "  c": one command "b c" (the continuation's indent trimmed).
    assert_eq!(role(&blocks, 1), Role::Output(lines("a\nb c")));
    assert_eq!(role(&blocks, 2), Role::Output(lines("dsplan plan x")));
    assert_eq!(role(&blocks, 3), Role::NotOutput);
    assert_eq!(role(&blocks, 4), Role::Unmarked);
    assert_eq!(blocks[4].body, lines("```"));
    assert!(parse_blocks("```sh\nnever closed\n").is_err());
}

#[test]
fn commands_are_rewritten_to_the_binary_once() {
    let bin = "/t/target/release/dsplan";
    assert_eq!(
        rewrite("cargo run --release -- plan a --hosts 3", bin),
        "'/t/target/release/dsplan' plan a --hosts 3"
    );
    assert_eq!(
        rewrite("target/release/dsplan plan a | jq keys", bin),
        "'/t/target/release/dsplan' plan a | jq keys"
    );
    assert_eq!(
        rewrite("dsplan inventory a", "/x/it's"),
        r"'/x/it'\''s' inventory a"
    );
    // Only a leading `dsplan` word is the command.
    assert_eq!(rewrite("dsplanner x", bin), "dsplanner x");
    assert_eq!(rewrite("ls dsplan", bin), "ls dsplan");
}

#[test]
fn cuts_stand_for_any_lines_and_everything_else_matches_in_order() {
    let out = lines("a\nb\nc\nd\ne");
    assert_eq!(compare(&lines("a\nb\nc\nd\ne"), &out), Ok(()));
    assert_eq!(compare(&lines("a\n...\ne"), &out), Ok(()));
    // A cut may stand for no line at all: a b | ... | c d e.
    assert_eq!(compare(&lines("a\nb\n...\nc\nd\ne"), &out), Ok(()));
    assert_eq!(compare(&lines("...\nc\n...\n"), &out), Ok(()));
    assert_eq!(compare(&lines("  ...\nb\n...\nd\n..."), &out), Ok(()));
    // Without a cut the whole output must be there: the block stops after "d".
    assert_eq!(compare(&lines("a\nb\nc\nd"), &out).unwrap_err().block_at, 4);
    // The head must be the first lines: "b" is the output's second.
    assert_eq!(compare(&lines("b\n..."), &out).unwrap_err().block_at, 0);
    // The tail must be the last lines: "d" is not last.
    let m = compare(&lines("...\nd"), &out).unwrap_err();
    assert_eq!((m.block_at, m.output_at), (1, 4));
    // Runs between cuts in order: "d" then "b" is out of order; most of "c x" matches at c.
    assert!(compare(&lines("...\nd\n...\nb\n..."), &out).is_err());
    let m = compare(&lines("a\n...\nc\nx\n...\ne"), &out).unwrap_err();
    assert_eq!((m.block_at, m.output_at), (3, 3));
    // Head and tail may not overlap: a b c + c d e needs 6 lines.
    assert!(compare(&lines("a\nb\nc\n...\nc\nd\ne"), &out).is_err());
}

#[test]
fn bless_keeps_the_cuts_and_refuses_lost_runs() {
    let out = lines("A\nb\nc\nd\nE\nF");
    // Head of 1 and tail of 1 re-taken (A, F); the run "c" kept as it still occurs.
    assert_eq!(
        bless(&lines("a\n...\nc\n...\nf"), &out),
        Ok(lines("A\n...\nc\n...\nF"))
    );
    assert_eq!(bless(&lines("x\ny\n  ..."), &out), Ok(lines("A\nb\n  ...")));
    assert_eq!(bless(&lines("old"), &out), Ok(out.clone()));
    assert!(
        bless(&lines("a\n...\nz\n...\nf"), &out)
            .unwrap_err()
            .contains("block lines 3..3")
    );
    assert!(bless(&lines("1\n2\n3\n4\n...\n5\n6\n7"), &out).is_err());
    // The blessed block matches the output it came from.
    let blessed = bless(&lines("a\n...\nd\n...\nf"), &out).unwrap();
    assert_eq!(compare(&blessed, &out), Ok(()));
}

#[test]
fn the_diff_shows_context_and_each_sides_lines() {
    let e = lines("a\nb\nc\nd");
    let a = lines("a\nb\nX\nd");
    assert_eq!(diff(&e, 2, &a, 2), "  a\n  b\n- c\n+ X\n  d\n");
    // The README side stops at a cut: "c" differs, the cut and "z" are not shown.
    let e = lines("a\nc\n...\nz");
    assert_eq!(diff(&e, 1, &a, 1), "  a\n- c\n+ b\n+ X\n+ d\n");
}

#[test]
fn transcripts_show_the_commands_that_print() {
    let commands = lines("make > /dev/null\nls one");
    let outputs = vec![vec![], lines("x.svg\ny.svg")];
    assert_eq!(
        shown(&commands, outputs.clone(), true),
        lines("$ ls one\nx.svg\ny.svg")
    );
    assert_eq!(shown(&commands, outputs, false), lines("x.svg\ny.svg"));
}

#[test]
fn line_counts_are_read_from_the_paragraph_above_the_command() {
    // The paragraph above the fence on line 6 (1-based) says "1,263 lines" on its first
    // line (0-based 2); the count in the paragraph before is not its.
    let md = lines("Two, 9 lines.\n\nThe estate, 1,263 lines, starts\nwith its summary:\n\n```sh");
    let md: Vec<&str> = md.iter().map(String::as_str).collect();
    assert_eq!(stated_line_count(&md, 6), Some((2, 1263)));
    let two = ["One, 5 lines, or 6 lines:", "```sh"];
    assert_eq!(stated_line_count(&two, 2), None);
    assert_eq!(stated_line_count(&["no count:", "```sh"], 2), None);
    assert_eq!(
        (grouped(532), grouped(1263), grouped(1_000_000)),
        ("532".into(), "1,263".into(), "1,000,000".into())
    );
}

#[test]
fn blocks_skip_without_their_tools_or_the_shared_exports() {
    let serve = lines("dsplan serve --open");
    assert_eq!(
        skip_reason(&serve, true).as_deref(),
        Some("`dsplan serve` is not run")
    );
    let shared = lines("dsplan inventory ../shared/rvtools/x.xlsx");
    assert_eq!(
        skip_reason(&shared, false).as_deref(),
        Some("../shared not found")
    );
    assert_eq!(skip_reason(&shared, true), None);
    // `sh` is on every PATH this test runs on; a made-up tool is not.
    assert!(on_path("sh"));
    assert!(!on_path("dsplan-no-such-tool"));
}
