//! The processor time the whole process has used (every thread: the canvas's, the driver's),
//! for `bench`'s CPU time a frame. Frame times on a shared machine move by 20-40% from one run
//! to the next with the other work on it; the processor time a frame takes moves far less, so
//! two builds compare better by it.

use std::time::Duration;

/// Clock ticks a second in `/proc`'s times: the kernel's USER_HZ, 100 on every architecture
/// Linux exports to user space (`sysconf(_SC_CLK_TCK)`).
const TICKS_A_SECOND: u64 = 100;

/// User plus system time of this process so far; `None` where `/proc/self/stat` cannot be
/// read (not Linux).
pub fn process_cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    cpu_time_of(&stat)
}

/// The user and system time in a `/proc/<pid>/stat` line: fields 14 and 15, counted after the
/// command name, which is in parentheses and may hold spaces and parentheses itself.
fn cpu_time_of(stat: &str) -> Option<Duration> {
    let after_name = &stat[stat.rfind(')')? + 1..];
    let mut fields = after_name.split_whitespace().skip(11);
    let user: u64 = fields.next()?.parse().ok()?;
    let system: u64 = fields.next()?.parse().ok()?;
    let ticks = user.checked_add(system)?;
    Some(Duration::from_millis(ticks.checked_mul(1000 / TICKS_A_SECOND)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_and_system_ticks_are_read_after_the_command_name() {
        // A real line's shape: pid, (comm) with a space and a parenthesis, state, then
        // ppid .. utime (field 14) = 250, stime (15) = 30.
        let line = "4242 (map scope) x) R 1 4242 4242 0 -1 4194560 900 0 0 0 250 30 0 0 20 0 \
                    3 0 100 0 0";
        assert_eq!(cpu_time_of(line), Some(Duration::from_millis(2800)));
        assert_eq!(cpu_time_of("4242 (mapscope) R 1 2"), None);
        assert_eq!(cpu_time_of("no name here"), None);
    }

    #[test]
    fn this_process_has_used_some_time_and_it_grows() {
        let Some(before) = process_cpu_time() else { return };
        let mut x = 0u64;
        let start = std::time::Instant::now();
        while start.elapsed() < Duration::from_millis(60) {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
        }
        std::hint::black_box(x);
        let after = process_cpu_time().expect("read once, read again");
        assert!(after >= before + Duration::from_millis(20), "{before:?} -> {after:?}");
    }
}
