# The heap allocator of the shipped executables. Deriving the stages of a large program makes
# millions of small allocations on a worker thread, where glibc's per-thread arena spends a third
# of the time in malloc/free and in growing the arena (mprotect); gperftools' tcmalloc
# (Debian: libgoogle-perftools-dev) takes that from ~7.3 s to ~4.3 s on a 100k-op report.
# Sanitizer and fuzzer builds keep the system allocator (they bring their own).
if(SHARDSCOPE_SANITIZE OR SHARDSCOPE_BUILD_FUZZERS)
  set(_shardscope_tcmalloc_default OFF)
else()
  set(_shardscope_tcmalloc_default ON)
endif()
option(SHARDSCOPE_TCMALLOC "Link the executables with tcmalloc (gperftools)"
       ${_shardscope_tcmalloc_default})

if(SHARDSCOPE_TCMALLOC)
  find_package(PkgConfig REQUIRED)
  pkg_check_modules(TCMALLOC REQUIRED IMPORTED_TARGET libtcmalloc_minimal)
endif()

# shardscope_use_allocator(<executable>): links the chosen allocator into an executable.
function(shardscope_use_allocator target)
  if(SHARDSCOPE_TCMALLOC)
    target_link_libraries(${target} PRIVATE PkgConfig::TCMALLOC)
  endif()
endfunction()
