; SPDX-License-Identifier: MIT
; Device globals as DPC++ hands them to llvm-spirv: each
; sycl_ext_oneapi_device_global variable carries the !spirv.Decorations
; that sycl-post-link's CompileTimePropertiesPass gives it, HostAccessINTEL
; (6147, SPV_INTEL_global_variable_decorations) with the host_access
; property (0 read, 1 write, 2 read_write, 3 none) and the variable's
; sycl-unique-id as its name. "plain" is an ordinary program-scope
; variable, reached by its Export name. Made into SPIR-V at build time:
;   clang -cc1 -x ir -emit-llvm-bc, then
;   llvm-spirv --spirv-ext=+SPV_INTEL_global_variable_decorations
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-n8:16:32:64"
target triple = "spir64-unknown-unknown"

%"class.device_global.int" = type { i32 }
%"class.device_global.table" = type { [4 x i64] }

@_ZL7counter = internal addrspace(1) global %"class.device_global.int" { i32 42 }, align 4, !spirv.Decorations !0
@_ZL5table = internal addrspace(1) global %"class.device_global.table" zeroinitializer, align 8, !spirv.Decorations !2
@_ZL6config = internal addrspace(1) global %"class.device_global.int" { i32 7 }, align 4, !spirv.Decorations !4
@_ZL7scratch = internal addrspace(1) global %"class.device_global.int" { i32 9 }, align 4, !spirv.Decorations !6
@plain = addrspace(1) global i32 5, align 4

; Uses every variable, so that none is dropped.
define spir_kernel void @touch(ptr addrspace(1) %out) {
entry:
  %c = load i32, ptr addrspace(1) @_ZL7counter, align 4
  %n = add i32 %c, 1
  store i32 %n, ptr addrspace(1) @_ZL7counter, align 4
  %t = load i64, ptr addrspace(1) @_ZL5table, align 8
  %cf = load i32, ptr addrspace(1) @_ZL6config, align 4
  store i32 %cf, ptr addrspace(1) @_ZL7scratch, align 4
  %p = load i32, ptr addrspace(1) @plain, align 4
  %t32 = trunc i64 %t to i32
  %s = add i32 %t32, %p
  store i32 %s, ptr addrspace(1) %out, align 4
  ret void
}

!0 = !{!1}
!1 = !{i32 6147, i32 2, !"9f3c1a7e52d04b68____ZL7counter"}
!2 = !{!3}
!3 = !{i32 6147, i32 2, !"9f3c1a7e52d04b68____ZL5table"}
!4 = !{!5}
!5 = !{i32 6147, i32 0, !"9f3c1a7e52d04b68____ZL6config"}
!6 = !{!7}
!7 = !{i32 6147, i32 3, !"9f3c1a7e52d04b68____ZL7scratch"}
