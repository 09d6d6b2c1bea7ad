/* devices.c - `make devices`: every OpenCL platform and device, with the
 * P:D index that --device and SPMV_DEVICE take. */
#include "clutil.h"

int main(void)
{
    spmv_prog = "devices";
    spmv_cl_list();
    return 0;
}
