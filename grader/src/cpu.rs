//! Computing time, as the kernel counts it.
//!
//! Every limit on student work (a build, a test) is on computing time, not
//! on the clock: a machine busy with other builds, other graders, or a class
//! graded several submissions at a time gives each process fewer seconds of
//! the processor per second of the clock, and must never turn a correct
//! submission into a failure. The clock is only a backstop, at
//! [`WALL_FACTOR`] times the limit, for processes that wait instead of
//! working.

use std::time::Duration;

/// How many times its computing-time limit a build or a test may last on
/// the clock.
pub const WALL_FACTOR: u32 = 5;

/// The times `/proc/<pid>/stat` gives for one process.
struct Times {
    /// Its own user and system time.
    own: Duration,
    /// The time of the children it has waited for (the kernel adds theirs,
    /// and their children's, when they are reaped).
    reaped: Duration,
    /// Its process group.
    group: u32,
}

/// Reads one process's times; `None` once it is gone.
fn times(stat_path: &str) -> Option<Times> {
    let stat = std::fs::read_to_string(stat_path).ok()?;
    // The fields after the command name (which may hold spaces and
    // parentheses): state is the 1st, pgrp the 3rd, utime, stime, cutime
    // and cstime the 12th to 15th.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let number = |i: usize| fields.get(i)?.parse::<u64>().ok();
    // SAFETY: sysconf has no preconditions.
    let per_second = u64::try_from(unsafe { libc::sysconf(libc::_SC_CLK_TCK) })
        .unwrap_or(100)
        .max(1);
    let ticks = |t: u64| Duration::from_millis(t * 1000 / per_second);
    Some(Times {
        own: ticks(number(11)? + number(12)?),
        reaped: ticks(number(13)? + number(14)?),
        group: u32::try_from(number(2)?).ok()?,
    })
}

/// Computing time used so far by process `pid` itself (zero once it is
/// gone).
#[must_use]
pub fn process_time(pid: u32) -> Duration {
    times(&format!("/proc/{pid}/stat")).map_or(Duration::ZERO, |t| t.own)
}

/// Computing time used so far by the process group `group`: every live
/// member's own time and the time of the members it has reaped. A build
/// (cargo, its rustc processes, build scripts) runs in one group.
#[must_use]
pub fn group_time(group: u32) -> Duration {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Duration::ZERO;
    };
    entries
        .flatten()
        .filter(|e| {
            e.file_name()
                .to_str()
                .is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()))
        })
        .filter_map(|e| times(&format!("/proc/{}/stat", e.file_name().to_string_lossy())))
        .filter(|t| t.group == group)
        .map(|t| t.own + t.reaped)
        .sum()
}

/// The calling thread's computing time.
#[must_use]
pub fn thread_time() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes the struct we own.
    unsafe {
        libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t);
    }
    Duration::new(
        u64::try_from(t.tv_sec).unwrap_or(0),
        u32::try_from(t.tv_nsec).unwrap_or(0),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::CommandExt;
    use std::process::Command;

    /// A group whose leader waits for a child that does a fixed amount of
    /// work (about a quarter of a second of computing time, however busy the
    /// machine), then becomes `sleep` (its reaped time stays with it).
    fn busy_group() -> std::process::Child {
        Command::new("sh")
            .arg("-c")
            .arg("sh -c 'i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done'; exec sleep 1000")
            .process_group(0)
            .spawn()
            .unwrap()
    }

    #[test]
    fn a_groups_time_includes_the_children_it_has_reaped() {
        let mut child = busy_group();
        let group = child.id();
        // Wait (on a condition, not a duration) until the busy child has
        // been reaped and the leader sleeps.
        let comm = format!("/proc/{group}/comm");
        while std::fs::read_to_string(&comm).unwrap_or_default() != "sleep\n" {
            std::thread::sleep(Duration::from_millis(20));
        }
        let used = group_time(group);
        // SAFETY: kill(2) on the group this test started.
        unsafe {
            libc::kill(-i32::try_from(group).unwrap(), libc::SIGKILL);
        }
        let _ = child.wait();
        assert!(used > Duration::from_millis(50), "{used:?}");
        assert!(process_time(group) < used, "the leader itself only waited");
    }
}
