// RUN: sdy_opt %s -split-input-file | FileCheck %s

// CHECK: func.func @checked
func.func @checked()

// -----

// No directive here: lit checks this chunk's output against nothing, so it passes when the tool
// succeeds (run alone, FileCheck would reject the empty check file).
func.func @unchecked()

// -----

// No directive either, but the tool fails on this chunk: the case fails.
func.func @broken() bad_op
