//! Doom: real levels and the source ports' features, one module per subject.
//!
//! Real data: every map of Freedoom loads, builds and renders (`freedoom`); the community maps
//! of `../shared/realmaps/doom` and every node format (`map_formats`); PK3 packages and their
//! PNG and TEXTURES contents (`pk3`); mod folders, vgp-deathmatch's among them (`folder`); renders and vanilla's BSP walk against Chocolate Doom's
//! reference frames in `tests/data/doom-reference` (`reference`, `vanilla_walk`).
//!
//! The source ports' features, each in a small room built over Freedoom and rendered three
//! ways (faithful on the CPU canvas, faithful on the GPU, smooth): Boom's light transfer,
//! scrollers and view specials (`boom`, `boom_views`); ZDoom's UDMF properties, slopes, sector
//! colours, line alpha, 3D floors and their light, polyobjects and MAPINFO skies; a mod's
//! DECORATE and ZScript actors (`actors`);
//! TEXTURE1/PNAMES tables, TEXTURES sprites and graphics, texture scales and large flats.
//!
//! Needs Freedoom (Debian package `freedoom`) and, for `map_formats`, `slopes` and some
//! reference views, `../shared`; tests without their data fail and say how to get it.
//!
//! Run just these: `cargo test --test doom`; one module: `cargo test --test doom slopes::`.
//! Doom's CPU triangle canvas against the GPU is in `tests/render/`, corrupt WADs and PK7
//! bounds in `tests/hostile/`, `compare` on Doom screenshots in `tests/cli/`.

#[path = "../support/mod.rs"]
mod support;

// Real data.
mod folder;
mod freedoom;
mod map_formats;
mod pk3;
mod reference;
mod startless;
mod vanilla_walk;

// Features, in rooms over Freedoom.
mod actors;
mod boom;
mod boom_views;
mod floor_light_3d;
mod floors_3d;
mod hires_flats;
mod line_alpha;
mod mapinfo_skies;
mod polyobjects;
mod sector_color;
mod slopes;
mod texture_scale;
mod texture_tables;
mod textures_sprites;
mod udmf_gzdoom_leniency;
mod udmf_props;
