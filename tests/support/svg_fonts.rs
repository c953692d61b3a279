// Included with `include!` by tests/charts.rs and tests/sweep_chart.rs: every text of an
// SVG chart is at least 11 px at the SVG's own width.

/// The smallest text allowed, px at the SVG's own width.
const MIN_FONT_PX: f64 = 11.0;

/// The value of attribute `name` of `e`, or "".
fn svg_attr(e: &quick_xml::events::BytesStart, name: &str) -> String {
    e.attributes()
        .flatten()
        .find(|a| a.key.0 == name)
        .map(|a| a.value.into_owned())
        .unwrap_or_default()
}

/// The `width` of the root `svg` element and every `font-size` in the document.
fn widths_and_fonts(xml: &str) -> (f64, Vec<f64>) {
    let mut reader = quick_xml::Reader::from_str(xml);
    let (mut width, mut fonts) = (f64::NAN, Vec::new());
    loop {
        match reader.read_event().unwrap() {
            quick_xml::events::Event::Start(e) | quick_xml::events::Event::Empty(e) => {
                if e.name().0 == "svg" {
                    width = svg_attr(&e, "width").parse().unwrap_or(f64::NAN);
                }
                let size = svg_attr(&e, "font-size");
                if !size.is_empty() {
                    fonts.push(size.trim_end_matches("px").parse().unwrap_or(f64::NAN));
                }
            }
            quick_xml::events::Event::Eof => break,
            _ => {}
        }
    }
    (width, fonts)
}

/// Every text of `xml` is at least [`MIN_FONT_PX`] at the SVG's own width (the width the
/// chart is shown at when a page gives it its natural size).
fn assert_fonts_readable(name: &str, xml: &str) {
    let (width, fonts) = widths_and_fonts(xml);
    assert!(width > 0.0, "{name}: no width");
    assert!(!fonts.is_empty(), "{name}: no font-size");
    let small: Vec<f64> = fonts
        .iter()
        .copied()
        .filter(|&f| f.is_nan() || f < MIN_FONT_PX)
        .collect();
    assert!(
        small.is_empty(),
        "{name}: font sizes under 11 px: {small:?}"
    );
}
