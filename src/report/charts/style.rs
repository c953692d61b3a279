//! The one style of every chart (`plan --charts`, `sweep --svg` and the workbook's native
//! charts): the Okabe-Ito palette with a fixed colour per design, font sizes, grid and
//! margins.
//!
//! Designs: vSAN alone orange, ANF blue, hybrid bluish green, in every chart that shows
//! them. Targets are vermillion, the peak months reddish purple; a second series of the
//! same design (a datastore's size beside its data) is sky blue. No yellow: it fades in
//! print. Text is at least [`FONT_MIN_PX`] at the chart's own width.

use plotters::style::RGBColor;

use crate::plan::Design;

/// Okabe-Ito blue (dark in greyscale): ANF.
pub const BLUE: RGBColor = RGBColor(0x00, 0x72, 0xB2);
/// Okabe-Ito orange (light in greyscale): vSAN.
pub const ORANGE: RGBColor = RGBColor(0xE6, 0x9F, 0x00);
/// Okabe-Ito bluish green: the hybrid design.
pub const GREEN: RGBColor = RGBColor(0x00, 0x9E, 0x73);
/// Okabe-Ito vermillion: the targets.
pub const VERMILLION: RGBColor = RGBColor(0xD5, 0x5E, 0x00);
/// Okabe-Ito sky blue: ANF's second series (a datastore's or pool's size).
pub const SKY: RGBColor = RGBColor(0x56, 0xB4, 0xE9);
/// Okabe-Ito reddish purple: the peak months' targets and layout.
pub const PURPLE: RGBColor = RGBColor(0xCC, 0x79, 0xA7);
/// The grid lines at labelled ticks: light grey.
pub const GRID: RGBColor = RGBColor(0xE4, 0xE4, 0xE4);
/// Axis lines and the text of labels: dark grey.
pub const AXIS: RGBColor = RGBColor(0x44, 0x44, 0x44);

/// Six Okabe-Ito colours, dark and light alternating, for lines that are not designs (the
/// sweep's host counts).
pub const PALETTE: [RGBColor; 6] = [BLUE, ORANGE, GREEN, VERMILLION, SKY, PURPLE];

/// The colour of `design` in every chart.
pub fn design_colour(design: Design) -> RGBColor {
    match design {
        Design::Vsan => ORANGE,
        Design::Anf => BLUE,
        Design::Hybrid => GREEN,
    }
}

/// `colour` as SVG writes it (`#0072B2`).
pub fn hex(colour: RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", colour.0, colour.1, colour.2)
}

/// `colour` as a 0xRRGGBB number (the workbook's charts).
pub fn rgb(colour: RGBColor) -> u32 {
    (u32::from(colour.0) << 16) | (u32::from(colour.1) << 8) | u32::from(colour.2)
}

/// The smallest text the SVG carries, px at the chart's own width.
pub const FONT_MIN_PX: f64 = 12.0;
/// Plotters writes a font of size `n` as `font-size` n / 1.24 in the SVG (its point to
/// pixel factor): the sizes below are plotters', and the SVG's are 0.81 of them.
const PLOTTERS_TO_SVG: f64 = 1.0 / 1.24;
/// Title (about 17 px in the SVG).
pub const FONT_TITLE_PX: u32 = 21;
/// A panel's caption (about 14.5 px).
pub const FONT_CAPTION_PX: u32 = 18;
/// Axis titles (about 13 px).
pub const FONT_AXIS_PX: u32 = 16;
/// Tick labels, legends and values beside bars (about 12.1 px).
pub const FONT_LABEL_PX: u32 = 15;

/// The `font-size` the SVG carries for plotters' size `size`.
pub fn svg_font_px(size: u32) -> f64 {
    f64::from(size) * PLOTTERS_TO_SVG
}

/// Margin around a chart, px.
pub const MARGIN_PX: u32 = 8;
/// Height of the value axis labels and title under a chart, px.
pub const X_LABEL_AREA_PX: u32 = 40;
/// Value axis labels drawn (about; plotters picks round numbers).
pub const VALUE_LABELS: usize = 6;

/// Clusters a chart of clusters draws one bar each; the rest are one "others" bar.
pub const TOP_CLUSTERS: usize = 8;

/// A title's font.
pub fn title_font() -> (&'static str, u32) {
    ("sans-serif", FONT_TITLE_PX)
}

/// A panel caption's font.
pub fn caption_font() -> (&'static str, u32) {
    ("sans-serif", FONT_CAPTION_PX)
}

/// An axis title's font.
pub fn axis_font() -> (&'static str, u32) {
    ("sans-serif", FONT_AXIS_PX)
}

/// A tick label's, legend's or bar value's font.
pub fn label_font() -> (&'static str, u32) {
    ("sans-serif", FONT_LABEL_PX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn designs_have_distinct_okabe_ito_colours() {
        assert_eq!(hex(design_colour(Design::Vsan)), "#E69F00");
        assert_eq!(hex(design_colour(Design::Anf)), "#0072B2");
        assert_eq!(hex(design_colour(Design::Hybrid)), "#009E73");
        assert_eq!(rgb(BLUE), 0x0072B2);
        // The smallest font: 15 / 1.24 = 12.1 px in the SVG.
        assert!((svg_font_px(FONT_LABEL_PX) - 12.097).abs() < 0.001);
        assert!(svg_font_px(FONT_LABEL_PX) >= FONT_MIN_PX);
    }
}
