; SPDX-License-Identifier: MIT
; The image of globals-pocl.sh: two device globals as DPC++ hands them to
; llvm-spirv (!spirv.Decorations HostAccessINTEL, 6147, read_write, named
; by the variable's sycl-unique-id) and a kernel reading them.
; "counter" has device_image_scope: the variable is the value itself,
; int[4] initialized 5 6 7 8. "shared" has not: the variable holds the
; device address of memory the runtime makes per device (null until the
; runtime writes one). peek, launched over 4 work-items, stores
; counter[i] + 100 to out[i] and 1 to out[4] while shared's pointer is
; still null. Made at build time into SPIR 1.2 bitcode (clang -cc1 -x ir)
; and into SPIR-V (llvm-spirv, SPV_INTEL_global_variable_decorations).
target datalayout = "e-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024"
target triple = "spir64-unknown-unknown"

%"class.device_global.counter" = type { [4 x i32] }
%"class.device_global.shared" = type { ptr addrspace(1) }

@_ZL7counter = internal addrspace(1) global %"class.device_global.counter" { [4 x i32] [i32 5, i32 6, i32 7, i32 8] }, align 4, !spirv.Decorations !0
@_ZL6shared = internal addrspace(1) global %"class.device_global.shared" zeroinitializer, align 8, !spirv.Decorations !2

define spir_kernel void @peek(ptr addrspace(1) noundef align 4 %out) !kernel_arg_addr_space !4 !kernel_arg_access_qual !5 !kernel_arg_type !6 !kernel_arg_base_type !6 !kernel_arg_type_qual !7 {
entry:
  %i = tail call spir_func i64 @_Z13get_global_idj(i32 0)
  %src = getelementptr inbounds [4 x i32], ptr addrspace(1) @_ZL7counter, i64 0, i64 %i
  %c = load i32, ptr addrspace(1) %src, align 4
  %v = add i32 %c, 100
  %dst = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %i
  store i32 %v, ptr addrspace(1) %dst, align 4
  %p = load ptr addrspace(1), ptr addrspace(1) @_ZL6shared, align 8
  %null = icmp eq ptr addrspace(1) %p, null
  %flag = zext i1 %null to i32
  %last = getelementptr inbounds i32, ptr addrspace(1) %out, i64 4
  store i32 %flag, ptr addrspace(1) %last, align 4
  ret void
}

declare spir_func i64 @_Z13get_global_idj(i32)

!opencl.ocl.version = !{!8}
!opencl.spir.version = !{!8}

!0 = !{!1}
!1 = !{i32 6147, i32 2, !"5b0e41c7a93d2f68____ZL7counter"}
!2 = !{!3}
!3 = !{i32 6147, i32 2, !"5b0e41c7a93d2f68____ZL6shared"}
!4 = !{i32 1}
!5 = !{!"none"}
!6 = !{!"int*"}
!7 = !{!""}
!8 = !{i32 1, i32 2}
