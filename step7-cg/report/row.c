/* report/row.c - a row of chapter 7's CG results file, its lines, the bytes
 * of an iteration: report/row.h */
#include "row.h"
#include "results.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

double spmv_cg_bytes(long long rows, long long nnz, int value_size, int passes)
{
    return (double)nnz * (value_size + 4) + (double)(rows + 1) * 4 + (double)passes * rows * value_size;
}

/* A number, or an empty field where it is negative (a tool that cannot tell) */
static void csv_num(FILE *f, double v)
{
    if (v >= 0)
        fprintf(f, ",%.6g", v);
    else
        fputc(',', f);
}

void spmv_cg_csv(const char *csv, const spmv_cg_row *r)
{
    if (!csv)
        return;
    FILE *f = spmv_csv_append(csv, SPMV_CG_CSV_HEADER);
    int timed = r->check && strcmp(r->check, "PASS") == 0 && r->ms_per_iter > 0;
    char date[32];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", gmtime(&now));
    spmv_csv_field(f, r->step); fputc(',', f);
    spmv_csv_field(f, r->kernel); fputc(',', f);
    spmv_csv_field(f, r->device); fputc(',', f);
    spmv_csv_field(f, r->driver); fputc(',', f);
    spmv_csv_field(f, r->matrix);
    fprintf(f, ",%lld,%lld,%lld,%c,%d,%d,%d,%d", r->rows, r->cols, r->nnz, r->precision, r->iterations,
            r->check_every, r->extra_iterations, r->converged);
    csv_num(f, r->rel_residual);
    csv_num(f, r->true_residual);
    csv_num(f, r->tol);
    csv_num(f, timed ? r->ms_per_iter : -1);   /* no time for an unchecked result */
    csv_num(f, timed ? r->ms_total : -1);
    csv_num(f, timed ? r->spmv_ms : -1);
    csv_num(f, timed ? r->vector_ms : -1);
    if (timed && !isnan(r->wait_ms))   /* measured, so kept as it is, even below 0 (commands that overlap) */
        fprintf(f, ",%.6g", r->wait_ms);
    else
        fputc(',', f);
    csv_num(f, r->launches);
    csv_num(f, r->bytes);
    csv_num(f, r->bytes_compulsory);
    csv_num(f, r->bw_gbs);
    int bound = timed && r->bw_gbs > 0;
    csv_num(f, bound && r->bytes > 0 ? 100.0 * r->bytes / (r->bw_gbs * 1e6) / r->ms_per_iter : -1);
    csv_num(f, bound && r->bytes_compulsory > 0 ? 100.0 * r->bytes_compulsory / (r->bw_gbs * 1e6) / r->ms_per_iter : -1);
    fputc(',', f);
    spmv_csv_field(f, r->check);
    fprintf(f, ",%s,%s\n", date, spmv_git_rev());
    if (fclose(f) != 0)
        spmv_die(SPMV_EXIT_USAGE, "cannot write --csv %s: %s", csv, strerror(errno));
}

void spmv_cg_report(const spmv_run *run, const spmv_cg_row *r, const char *csv)
{
    FILE *out = spmv_results(run);
    int it = r->loop_iterations > 0 ? r->loop_iterations : 1;
    if (r->check && strcmp(r->check, "PASS") == 0 && r->ms_per_iter > 0) {
        double loop = r->ms_total / it,
               parts = r->spmv_ms + r->vector_ms + r->reads_ms + r->gaps_ms;
        fprintf(out, "---- %s\n", r->kernel);
        fprintf(out, "time     %.4f ms an iteration (median of %d %s); the loop %.2f ms, %.4f ms an iteration\n",
                r->ms_per_iter, r->blocks, r->blocks_what, r->ms_total, loop);
        fprintf(out, "split    product %.4f + vector kernels %.4f + read-backs %.4f + between commands %.4f "
                "(launches, the host's waits) = %.4f ms an iteration on the device's clock, over %d iterations "
                "with an event on every command (%.4f ms an iteration on the host's)\n", r->spmv_ms, r->vector_ms,
                r->reads_ms, r->gaps_ms, parts, r->prof_iterations, r->prof_ms);
        if (r->rounds > 0 && r->bare_ms[0] > 0)
            fprintf(out, "events   the same %d iterations without them, in turn with the split's, %d round%s: %.4f ms "
                    "an iteration (median; %.4f to %.4f), the split's %.4f (%.4f to %.4f): the events cost %+.0f%%\n",
                    r->prof_iterations, r->rounds, r->rounds == 1 ? "" : "s", r->bare_ms[0], r->bare_ms[1],
                    r->bare_ms[2], r->dev_ms[0], r->dev_ms[1], r->dev_ms[2], 100 * (r->dev_ms[0] / r->bare_ms[0] - 1));
        else
            fprintf(out, "events   the loop without them: %.4f ms an iteration, so the events cost %+.0f%%\n", loop,
                    loop > 0 ? 100 * (r->prof_ms / loop - 1) : 0);
        if (r->overlap_ms > 0)
            fprintf(out, "overlap  %.4f ms an iteration: commands whose times overlap, counted in both (between "
                    "commands holds it, below 0)\n", r->overlap_ms);
        fprintf(out, "launches %.0f an iteration; the host waits %s\n", r->launches, r->waits);
        fprintf(out, "bytes    %.4g MB an iteration (matrix once + %d sweeps), compulsory %.4g MB (+ %d)\n",
                r->bytes / 1e6, r->passes, r->bytes_compulsory / 1e6, SPMV_CG_COMPULSORY_PASSES);
        if (r->bw_gbs > 0) {
            double bound = r->bytes / (r->bw_gbs * 1e6), bound_c = r->bytes_compulsory / (r->bw_gbs * 1e6);
            fprintf(out, "bound    %.4f ms at %.1f GB/s (the probe above, every version's): %.1f%% of this "
                    "version's bound, %.1f%% of the compulsory %.4f ms\n", bound, r->bw_gbs,
                    100 * bound / r->ms_per_iter, 100 * bound_c / r->ms_per_iter, bound_c);
            if (bound_c > r->ms_per_iter)
                fprintf(out, "cache    above 100%%: the bound counts every byte from memory, but here some come from "
                        "the caches (the %.3g MB of one vector stay there between kernels)\n",
                        r->rows * (r->precision == 's' ? 4.0 : 8.0) / 1e6);
        }
    }
    spmv_cg_csv(csv, r);
}
