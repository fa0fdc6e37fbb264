// No @main and more than one function: `interpret` cannot tell which one to run (StableHLO runs
// `@main`, else the module's only function).
func.func @f() {
  return
}
func.func @g() {
  return
}
