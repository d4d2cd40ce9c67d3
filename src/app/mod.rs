//! The interactive viewer: a winit window showing the scene, a fly camera, an egui overlay,
//! F12 screenshots, a reference screenshot laid over the view, camera bookmarks.

pub mod bench_window;
mod bookmark;
pub mod compare_view;
mod find_panel;
mod fly_camera;
mod game_view;
mod inspector;
mod map_picker;
mod overlay;
mod overlay_layer;
mod overlay_paint;
mod path_panel;
pub mod reference;
pub mod settings;
mod viewer;
mod window_compositor;
mod window_surface;

pub use bookmark::{shell_quote, Bookmark};
pub use fly_camera::{FlyCamera, MoveKeys};
pub use viewer::{run_viewer, ViewerOptions};
