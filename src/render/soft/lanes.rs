//! Table reads for a group of lanes at once. The canvas's pixel loops are written lane by
//! lane and compile to vector instructions, but a read at eight unrelated positions (a texel,
//! a shading table entry) does not: the compiler moves each position out of its vector, loads
//! it and moves it back in, about a dozen instructions a lane, which was a third of the
//! instructions of a Marathon pixel. AVX2's gathers do the eight loads in one instruction.
//! The positions are clamped into the table first, so that a read is always inside it, and
//! the lanes read the same values as one read a lane would.

/// The vector instructions the canvas's pixel loops run with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tier {
    /// The target's baseline (SSE2 on x86-64).
    Baseline,
    Avx2,
}

impl Tier {
    /// The tier as `bench` reports it.
    pub fn name(self) -> &'static str {
        match self {
            Tier::Baseline if cfg!(target_arch = "x86_64") => "SSE2",
            Tier::Baseline => "baseline",
            Tier::Avx2 => "AVX2",
        }
    }
}

/// The widest tier the CPU has, asked once. `MAPSCOPE_CANVAS_SIMD=sse2` keeps the baseline,
/// to compare the tiers (tests/soft_canvas.rs checks that they draw the same bytes).
///
/// AVX-512 is not a tier: compiled for it (32 registers, masked stores) the loops ran 5% faster
/// on Saturn Quake's closed rooms and twice as slow on Doom's smooth frames (Zen 4).
pub fn tier() -> Tier {
    static TIER: std::sync::OnceLock<Tier> = std::sync::OnceLock::new();
    *TIER.get_or_init(|| match std::env::var("MAPSCOPE_CANVAS_SIMD").as_deref() {
        Ok("sse2") => Tier::Baseline,
        _ => detect(),
    })
}

#[cfg(target_arch = "x86_64")]
fn detect() -> Tier {
    if std::arch::is_x86_feature_detected!("avx2") {
        Tier::Avx2
    } else {
        Tier::Baseline
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn detect() -> Tier {
    Tier::Baseline
}

/// Lanes a read takes: one AVX2 vector of 32-bit values.
pub const LANES: usize = 8;

/// How the reads are done: a load a lane, or AVX2's gathers. Made only where the CPU has
/// AVX2 ([`Gather::avx2`]), and passed as a constant into the pixel loops compiled for it, so
/// that the choice costs nothing a group.
#[derive(Clone, Copy, Debug)]
pub struct Gather {
    avx2: bool,
}

impl Gather {
    /// A load a lane: on any CPU.
    pub const SCALAR: Gather = Gather { avx2: false };

    /// AVX2's gathers.
    ///
    /// # Safety
    /// The CPU must have AVX2.
    #[cfg(target_arch = "x86_64")]
    pub const unsafe fn avx2() -> Gather {
        Gather { avx2: true }
    }

    /// `table[at[j]]` for each lane, a position past the end reading the last entry; 0 from an
    /// empty table. `keep` lanes that are `false` keep their value in `old` instead.
    #[inline(always)]
    pub fn u32s(
        self,
        table: &[u32],
        at: &[u32; LANES],
        keep: &[bool; LANES],
        old: &[u32; LANES],
    ) -> [u32; LANES] {
        let last = table.len().saturating_sub(1).min(i32::MAX as usize) as u32;
        let mut at = *at;
        for a in &mut at {
            *a = (*a).min(last);
        }
        #[cfg(target_arch = "x86_64")]
        if self.avx2 && !table.is_empty() {
            // SAFETY: `avx2` is set only where the CPU has AVX2; every position is inside
            // `table` (clamped above) and below 2^31, as the gather's signed index needs.
            return unsafe { x86::gather_u32(table.as_ptr(), &at, keep, old) };
        }
        let read = |j: usize| table.get(at[j] as usize).copied().unwrap_or(0);
        std::array::from_fn(|j| if keep[j] { read(j) } else { old[j] })
    }

    /// `table[at[j]] as u32` for each lane, a position past the end reading the last entry;
    /// 0 from an empty table.
    #[inline(always)]
    pub fn u16s(self, table: &[u16], at: &[u32; LANES]) -> [u32; LANES] {
        let last = table.len().saturating_sub(1).min(i32::MAX as usize) as u32;
        let mut at = *at;
        for a in &mut at {
            *a = (*a).min(last);
        }
        #[cfg(target_arch = "x86_64")]
        if self.avx2 && !table.is_empty() {
            // SAFETY: as in `u32s`: the CPU has AVX2, the positions are inside `table`.
            return unsafe { x86::gather_u16(table, &at, last) };
        }
        std::array::from_fn(|j| table.get(at[j] as usize).copied().unwrap_or(0) as u32)
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    use super::LANES;

    /// Lanes `j` with `keep[j]` read `base[at[j]]`, the others keep `old[j]`.
    ///
    /// # Safety
    /// The CPU has AVX2, and every `base + at[j]` is a readable `u32`.
    #[inline(always)]
    pub unsafe fn gather_u32(
        base: *const u32,
        at: &[u32; LANES],
        keep: &[bool; LANES],
        old: &[u32; LANES],
    ) -> [u32; LANES] {
        let mask: [i32; LANES] = std::array::from_fn(|j| -(keep[j] as i32));
        let mut out = [0u32; LANES];
        // SAFETY: the caller's promises; the arrays are 8 lanes of 32 bits.
        unsafe {
            let index = _mm256_loadu_si256(at.as_ptr().cast());
            let mask = _mm256_loadu_si256(mask.as_ptr().cast());
            let old = _mm256_loadu_si256(old.as_ptr().cast());
            let got = _mm256_mask_i32gather_epi32::<4>(old, base.cast(), index, mask);
            _mm256_storeu_si256(out.as_mut_ptr().cast(), got);
        }
        out
    }

    /// `table[at[j]]` for each lane, `last` being `table`'s last position.
    ///
    /// # Safety
    /// The CPU has AVX2, and every `at[j]` is at most `last`, the last position of `table`.
    #[inline(always)]
    pub unsafe fn gather_u16(table: &[u16], at: &[u32; LANES], last: u32) -> [u32; LANES] {
        if last == 0 {
            return [table.first().copied().unwrap_or(0) as u32; LANES];
        }
        // A gather reads 32 bits: each lane reads its texel and the one after, except at the
        // last texel, which is read with the one before and shifted down.
        let from: [u32; LANES] = std::array::from_fn(|j| at[j].min(last - 1));
        let shift: [u32; LANES] = std::array::from_fn(|j| (at[j] - from[j]) * 16);
        let mut out = [0u32; LANES];
        // SAFETY: the caller's promises; each read covers `table[from[j]..from[j] + 2]`.
        unsafe {
            let index = _mm256_loadu_si256(from.as_ptr().cast());
            let pairs = _mm256_i32gather_epi32::<2>(table.as_ptr().cast(), index);
            let shift = _mm256_loadu_si256(shift.as_ptr().cast());
            let low = _mm256_srlv_epi32(pairs, shift);
            let texels = _mm256_and_si256(low, _mm256_set1_epi32(0xFFFF));
            _mm256_storeu_si256(out.as_mut_ptr().cast(), texels);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The gathers where the CPU has them (else the scalar reads again).
    fn widest() -> Gather {
        match detect() {
            // SAFETY: `detect` found AVX2.
            #[cfg(target_arch = "x86_64")]
            Tier::Avx2 => unsafe { Gather::avx2() },
            _ => Gather::SCALAR,
        }
    }

    #[test]
    fn gathered_lanes_read_what_one_read_a_lane_reads() {
        let gather = widest();
        let words: Vec<u32> = (0..1000u32).map(|i| i.wrapping_mul(0x9E37_79B9)).collect();
        let halves: Vec<u16> = words.iter().map(|&w| (w >> 7) as u16).collect();
        let keep = [true, false, true, true, false, true, true, true];
        let old = [7u32; LANES];
        // Positions at both ends, past the end and far past it, in every lane.
        let spots = [0u32, 1, 998, 999, 1000, 1001, 123_456, u32::MAX];
        for shift in 0..LANES {
            let at: [u32; LANES] = std::array::from_fn(|j| spots[(j + shift) % LANES]);
            let clamped = at.map(|a| a.min(999) as usize);
            let expect_u32: [u32; LANES] =
                std::array::from_fn(|j| if keep[j] { words[clamped[j]] } else { old[j] });
            assert_eq!(gather.u32s(&words, &at, &keep, &old), expect_u32, "{at:?}");
            assert_eq!(Gather::SCALAR.u32s(&words, &at, &keep, &old), expect_u32, "{at:?}");
            let expect_u16: [u32; LANES] = clamped.map(|a| halves[a] as u32);
            assert_eq!(gather.u16s(&halves, &at), expect_u16, "{at:?}");
            assert_eq!(Gather::SCALAR.u16s(&halves, &at), expect_u16, "{at:?}");
        }
        // One entry, and none.
        let at = [0, 5, 0, 9, 1, 2, 3, 4];
        assert_eq!(gather.u16s(&[42], &at), [42; LANES]);
        assert_eq!(gather.u32s(&[42], &at, &[true; LANES], &old), [42; LANES]);
        assert_eq!(gather.u16s(&[], &at), [0; LANES]);
        assert_eq!(gather.u32s(&[], &at, &keep, &old), keep.map(|k| if k { 0 } else { 7 }));
    }

    #[test]
    fn the_tier_is_the_cpus_widest_unless_capped() {
        let widest = detect();
        assert!(tier() == widest || std::env::var_os("MAPSCOPE_CANVAS_SIMD").is_some());
        #[cfg(target_arch = "x86_64")]
        assert_eq!(widest != Tier::Baseline, std::arch::is_x86_feature_detected!("avx2"));
    }
}
