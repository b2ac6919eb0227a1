//! Test scaffolding for caller-built values nested far deeper than a recursion per level
//! could survive: building them, running on a small stack, and dropping them safely.

use serde_json::Value;

/// How deep the values are: a recursion per level overflows a 2 MiB stack long before.
pub(crate) const DEPTH: usize = 50_000;

/// A value nested `depth` arrays deep around `leaf`.
pub(crate) fn nested(depth: usize, leaf: Value) -> Value {
    let mut v = leaf;
    for _ in 0..depth {
        v = Value::Array(vec![v]);
    }
    v
}

/// Takes a value apart container by container: dropping a deep `Value` whole recurses.
pub(crate) fn dismantle(v: Value) {
    let mut stack = vec![v];
    while let Some(mut v) = stack.pop() {
        match &mut v {
            Value::Array(items) => stack.append(items),
            Value::Object(map) => stack.extend(std::mem::take(map).into_iter().map(|(_, v)| v)),
            _ => {}
        }
    }
}

/// `f` run on a thread with a 2 MiB stack, which a recursion per level would overflow.
pub(crate) fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(f)
        .expect("spawn")
        .join()
        .expect("no overflow")
}
