"""What compiled rules run on: runtime values, the VM (code, frames, instructions), the waits for players and the
random stream.

It sits below the compiler, which emits its instructions, and below play, which runs them; it imports neither."""
