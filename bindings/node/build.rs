//! Emits the linker settings a Node addon needs (undefined N-API symbols resolve at load time).
fn main() {
    napi_build::setup();
}
