// No @main: `interpret` has nothing to run.
func.func @f() {
  return
}
