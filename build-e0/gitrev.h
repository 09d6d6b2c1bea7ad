#define SPMV_GIT_REV "b6feee9"
