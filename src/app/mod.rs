//! The interactive viewer: a winit window showing the scene, a fly camera, an egui overlay,
//! F12 screenshots.

mod fly_camera;
mod overlay;
mod viewer;

pub use fly_camera::{FlyCamera, MoveKeys};
pub use viewer::run_viewer;
