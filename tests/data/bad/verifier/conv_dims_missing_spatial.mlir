// the spatial dimensions 0..N-1 each appear (StablehloOps.cpp parseConvolutionDimensions)
module attributes {
  // expected-error@+1 {{Expected spatial dimensions 0 not specified}}
  stablehlo.conv = #stablehlo.conv<[b, f, 1]x[o, 0, 1, i]->[f, b, 0, 1]>
} {}
