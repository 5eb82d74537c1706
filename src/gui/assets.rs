//! The page's files, embedded in the binary: nothing is loaded from the network.

/// The page.
pub const INDEX_HTML: &str = include_str!("assets/index.html");
/// Its script (plain JavaScript, no framework).
pub const APP_JS: &str = include_str!("assets/app.js");
/// Its style sheet.
pub const STYLE_CSS: &str = include_str!("assets/style.css");
/// Its icon.
pub const FAVICON_SVG: &str = include_str!("assets/favicon.svg");
