/* devices.c - `make devices`: every OpenCL platform and device, with the
 * P:D index that --device and SPMV_DEVICE take.
 *
 *   devices               the list
 *   devices --type SEL    one word, the type of the device SEL selects as
 *                         every step selects it (GPU, CPU, accelerator,
 *                         other): `make run` asks it of the device a step
 *                         reported, to add step 4's CPU kernel on a CPU
 */
#include "clutil.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--type") == 0) {
        printf("%s\n", spmv_cl_type(argv[2]));
        return 0;
    }
    if (argc > 1) {
        int help = strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0;
        fprintf(help ? stdout : stderr, "%susage: devices [--type SEL]\n", help ? "" : "devices: error: ");
        return help ? 0 : SPMV_EXIT_USAGE;
    }
    spmv_cl_list();
    return 0;
}
