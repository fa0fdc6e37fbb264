// A multi-host program: the example of the JAX commit "Add support for multihost pmaps". Two
// hosts with 4 devices each run the same program; each host passes the 4 values of its local
// devices, and the psum runs over all 8 devices of both hosts. The mesh makes the hosts explicit
// ("hosts"=2, "local"=4; device (h, l) has id 4*h + l), and the pmapped axis 'i' is both axes
// together, so the psum's one replica group holds all 8 devices. With `--inputs iota` `x` is
// arange(8), the psum is 28 and the result is [28 ... 35]: [28 29 30 31] on host 0 and
// [32 33 34 35] on host 1, as in the commit's docstring.
//
// ShardScope's MPI backend follows the same model, an MPI rank is a host: run it as
//   mpirun -np 2 shardscope-cli run FILE --backend mpi --inputs iota --check-reference
// and each rank runs the 4 devices of one host (the run prints the device -> rank map); the
// all_reduce crosses the ranks. @main_reference is the same on global values. The JAX source:
//
//   # on each of 2 hosts with 4 devices:
//   f = lambda x: x + jax.lax.psum(x, axis_name="i")
//   data = np.arange(4) if jax.process_index() == 0 else np.arange(4, 8)
//   out = jax.pmap(f, axis_name="i")(data)     # [28 29 30 31] on host 0, [32 33 34 35] on host 1

sdy.mesh @mesh = <["hosts"=2, "local"=4]>

func.func @main(%x: tensor<8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"hosts", "local"}]>})
    -> (tensor<8xi32> {sdy.sharding = #sdy.sharding<@mesh, [{"hosts", "local"}]>}) {
  %out = sdy.manual_computation(%x)
      in_shardings=[<@mesh, [{"hosts", "local"}]>]
      out_shardings=[<@mesh, [{"hosts", "local"}]>]
      manual_axes={"hosts", "local"} (%x_i: tensor<1xi32>) {
    // psum(x_i, "i"): one group of all 8 devices, across both hosts.
    %total = "stablehlo.all_reduce"(%x_i) <{
        channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,
        replica_groups = dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>,
        use_global_device_ids}> ({
    ^bb0(%a: tensor<i32>, %b: tensor<i32>):
      %s = stablehlo.add %a, %b : tensor<i32>
      stablehlo.return %s : tensor<i32>
    }) : (tensor<1xi32>) -> tensor<1xi32>
    %out_i = stablehlo.add %x_i, %total : tensor<1xi32>
    sdy.return %out_i : tensor<1xi32>
  } : (tensor<8xi32>) -> tensor<8xi32>
  return %out : tensor<8xi32>
}

// The same on global values: x + sum(x).
func.func @main_reference(%x: tensor<8xi32>) -> tensor<8xi32> {
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %sum = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [0] :
    (tensor<8xi32>, tensor<i32>) -> tensor<i32>
  %total = stablehlo.broadcast_in_dim %sum, dims = [] : (tensor<i32>) -> tensor<8xi32>
  %out = stablehlo.add %x, %total : tensor<8xi32>
  return %out : tensor<8xi32>
}
