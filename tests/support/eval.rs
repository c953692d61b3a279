// A tiny evaluator for the workbook's formulas (included by tests/xlsx.rs): numbers, cell
// references (`A2`, `$B$3`, `'Pools'!$E$2`), ranges (`'Pools'!$E$2:$E$9`, `$D:$D`), `+ - * /`,
// parentheses and SUM, SUMPRODUCT of ranges and `--EXACT(range,key)`, COUNTA, ROUND, ROUNDUP, MAX.
// Enough to recompute every formula the workbook writes and to see what an edit to one cell
// changes. SUMIF, SUMIFS and COUNTIF are left out on purpose: the workbook must not use them
// (they match case-insensitively and read `* ? ~ = < >` in names as criteria), so a formula
// holding one fails here.

use std::collections::HashMap;

/// Every cell of a workbook: (sheet, row, column), 0-based, -> value and formula.
struct Book {
    cells: HashMap<(String, usize, usize), (Data, Option<String>)>,
    heights: HashMap<String, usize>,
    edits: HashMap<(String, usize, usize), f64>,
}

/// A reference or range: sheet, first (row, column), last (row, column).
type Area = (String, (usize, usize), (usize, usize));

impl Book {
    fn read(book: &mut Xlsx<Cursor<Vec<u8>>>) -> Book {
        let mut cells = HashMap::new();
        let mut heights = HashMap::new();
        for name in book.sheet_names() {
            let v = book.worksheet_range(&name).unwrap();
            for (r, c, d) in v.used_cells() {
                let (r0, c0) = v.start().unwrap();
                let at = (name.clone(), r + r0 as usize, c + c0 as usize);
                cells.insert(at, (d.clone(), None));
            }
            heights.insert(name.clone(), v.end().map_or(0, |e| e.0 as usize + 1));
            let f = book.worksheet_formula(&name).unwrap();
            let (r0, c0) = f.start().unwrap_or((0, 0));
            for (r, c, text) in f.used_cells() {
                let at = (name.clone(), r + r0 as usize, c + c0 as usize);
                cells.entry(at).or_insert((Data::Empty, None)).1 = Some(text.clone());
            }
        }
        Book {
            cells,
            heights,
            edits: HashMap::new(),
        }
    }

    /// Every formula cell: (sheet, row, column, formula, cached value).
    fn formula_cells(&self) -> Vec<(String, usize, usize, String, Data)> {
        let mut out: Vec<_> = self
            .cells
            .iter()
            .filter_map(|((s, r, c), (d, f))| {
                f.as_ref()
                    .map(|f| (s.clone(), *r, *c, f.clone(), d.clone()))
            })
            .collect();
        out.sort_by(|a, b| (&a.0, a.1, a.2).cmp(&(&b.0, b.1, b.2)));
        out
    }

    /// The value of a cell, its formula recomputed (edited cells as edited).
    fn value(&self, sheet: &str, r: usize, c: usize) -> Data {
        let key = (sheet.to_string(), r, c);
        if let Some(v) = self.edits.get(&key) {
            return Data::Float(*v);
        }
        match self.cells.get(&key) {
            Some((_, Some(f))) => Data::Float(self.eval(sheet, f)),
            Some((d, None)) => d.clone(),
            None => Data::Empty,
        }
    }

    fn number(&self, sheet: &str, r: usize, c: usize) -> f64 {
        match self.value(sheet, r, c) {
            Data::Float(v) => v,
            Data::Int(v) => v as f64,
            _ => 0.0,
        }
    }

    fn eval(&self, sheet: &str, formula: &str) -> f64 {
        let mut p = Parser {
            s: formula.as_bytes(),
            i: 0,
            sheet,
            book: self,
        };
        let v = p.expr();
        assert_eq!(p.i, p.s.len(), "{sheet}: unparsed rest of {formula}");
        v
    }

    fn area_cells(&self, (s, a, b): &Area) -> Vec<(usize, usize)> {
        let last = if b.0 == usize::MAX {
            self.heights.get(s).copied().unwrap_or(0)
        } else {
            b.0 + 1
        };
        (a.0..last)
            .flat_map(|r| (a.1..=b.1).map(move |c| (r, c)))
            .collect()
    }
}

struct Parser<'a> {
    s: &'a [u8],
    i: usize,
    sheet: &'a str,
    book: &'a Book,
}

impl Parser<'_> {
    fn peek(&self) -> u8 {
        self.s.get(self.i).copied().unwrap_or(0)
    }

    fn eat(&mut self, b: u8) -> bool {
        let hit = self.peek() == b;
        self.i += usize::from(hit);
        hit
    }

    fn expr(&mut self) -> f64 {
        let mut v = self.term();
        loop {
            if self.eat(b'+') {
                v += self.term()
            } else if self.eat(b'-') {
                v -= self.term()
            } else {
                return v;
            }
        }
    }

    fn term(&mut self) -> f64 {
        let mut v = self.unary();
        loop {
            if self.eat(b'*') {
                v *= self.unary()
            } else if self.eat(b'/') {
                v /= self.unary()
            } else {
                return v;
            }
        }
    }

    fn unary(&mut self) -> f64 {
        if self.eat(b'-') {
            return -self.unary();
        }
        if self.eat(b'(') {
            let v = self.expr();
            assert!(self.eat(b')'));
            return v;
        }
        if self.peek().is_ascii_digit() {
            let start = self.i;
            while self.peek().is_ascii_digit() || self.peek() == b'.' {
                self.i += 1
            }
            return std::str::from_utf8(&self.s[start..self.i])
                .unwrap()
                .parse()
                .unwrap();
        }
        let start = self.i;
        while self.peek().is_ascii_uppercase() {
            self.i += 1
        }
        if self.peek() == b'(' && self.i > start {
            let name = std::str::from_utf8(&self.s[start..self.i])
                .unwrap()
                .to_string();
            self.i += 1;
            return self.call(&name);
        }
        self.i = start;
        let a = self.area();
        self.book.number(&a.0, (a.1).0, (a.1).1)
    }

    /// `ROUND`, `ROUNDUP`, `MAX`, `SUM`, `SUMPRODUCT`, `COUNTA` after the `(`.
    fn call(&mut self, name: &str) -> f64 {
        let v = match name {
            "ROUND" => {
                let x = self.expr();
                assert!(self.eat(b','));
                let n = self.expr();
                ((x * 10f64.powf(n)).round() / 10f64.powf(n)) + 0.0
            }
            "ROUNDUP" => {
                // Away from zero, as Excel's ROUNDUP.
                let x = self.expr();
                assert!(self.eat(b','));
                let n = self.expr();
                let scaled = x * 10f64.powf(n);
                (scaled.abs().ceil().copysign(scaled) / 10f64.powf(n)) + 0.0
            }
            "MAX" => {
                let mut m = self.expr();
                while self.eat(b',') {
                    m = m.max(self.expr())
                }
                m
            }
            "SUM" => {
                let a = self.area();
                self.values(&a).iter().map(num_of).sum()
            }
            "COUNTA" => {
                let a = self.area();
                self.values(&a)
                    .iter()
                    .filter(|d| **d != Data::Empty)
                    .count() as f64
            }
            "SUMPRODUCT" => {
                let mut product = self.array();
                while self.eat(b',') {
                    for (p, v) in product.iter_mut().zip(self.array()) {
                        *p *= v
                    }
                }
                product.iter().sum()
            }
            other => panic!("no function {other}"),
        };
        assert!(self.eat(b')'), "{name}: no closing parenthesis");
        v
    }

    /// One array of `SUMPRODUCT`: `--EXACT(range,key)` (1 where a cell's text equals the
    /// key's exactly, else 0) or a range's numbers (text as 0).
    fn array(&mut self) -> Vec<f64> {
        if !self.s[self.i..].starts_with(b"--EXACT(") {
            let a = self.area();
            return self.values(&a).iter().map(num_of).collect();
        }
        self.i += b"--EXACT(".len();
        let by = self.area();
        assert!(self.eat(b','));
        let key = self.area();
        assert!(self.eat(b')'), "EXACT: no closing parenthesis");
        let key = self.book.value(&key.0, (key.1).0, (key.1).1);
        let text = |d: &Data| match d {
            Data::String(s) => s.clone(),
            Data::Empty => String::new(),
            other => other.to_string(),
        };
        self.values(&by)
            .iter()
            .map(|d| f64::from(u8::from(text(d) == text(&key))))
            .collect()
    }

    fn values(&self, a: &Area) -> Vec<Data> {
        self.book
            .area_cells(a)
            .into_iter()
            .map(|(r, c)| self.book.value(&a.0, r, c))
            .collect()
    }

    /// `'Sheet'!$A$2:$B$3`, `A2`, `$D:$D` (a whole column: rows to `usize::MAX`).
    fn area(&mut self) -> Area {
        let mut sheet = self.sheet.to_string();
        if self.eat(b'\'') {
            let start = self.i;
            while self.peek() != b'\'' {
                self.i += 1
            }
            sheet = std::str::from_utf8(&self.s[start..self.i])
                .unwrap()
                .to_string();
            self.i += 1;
            assert!(self.eat(b'!'));
        }
        let mut a = self.cell();
        let b = if self.eat(b':') { self.cell() } else { a };
        if a.0 == usize::MAX {
            a.0 = 0;
        }
        (sheet, a, b)
    }

    /// `$AB$12` -> (11, 27); a column alone -> row 0 (`usize::MAX` as the end of a range).
    fn cell(&mut self) -> (usize, usize) {
        self.eat(b'$');
        let mut c = 0;
        while self.peek().is_ascii_uppercase() {
            c = c * 26 + usize::from(self.peek() - b'A' + 1);
            self.i += 1
        }
        self.eat(b'$');
        let mut r = 0;
        let start = self.i;
        while self.peek().is_ascii_digit() {
            r = r * 10 + usize::from(self.peek() - b'0');
            self.i += 1
        }
        assert!(c > 0, "no column at {}", self.i);
        let row = if self.i == start { usize::MAX } else { r - 1 };
        (row, c - 1)
    }
}

fn num_of(d: &Data) -> f64 {
    match d {
        Data::Float(v) => *v,
        Data::Int(v) => *v as f64,
        _ => 0.0,
    }
}
