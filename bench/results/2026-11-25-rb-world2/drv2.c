/* drv2.c -- xg_redblue (cpu engine) on a dump: drv2 DUMP THREADS RUNS [GX GY];
 * prints the grid figures and the fastest run with its stage split.
 * Built against libexactgeo: gcc -O2 -Isrc drv2.c -lexactgeo. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "exactgeo.h"
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
int main(int argc,char**argv){
  struct xg_ctx*ctx=xg_ctx_new(); struct xg_set a={0},b={0};
  int T=atoi(argv[2]), K=atoi(argv[3]), k;
  int gx=argc>4?atoi(argv[4]):0, gy=argc>5?atoi(argv[5]):0;
  if(xg_dump_read(ctx,argv[1],&a,&b)!=XG_OK){fprintf(stderr,"read\n");return 1;}
  xg_ctx_set_threads(ctx,T);
  double best=1e9, bp=0,bi=0,bu=0;
  for(k=0;k<K;k++){
    struct xg_opts o; struct xg_contacts out={0}; struct xg_stats st;
    memset(&o,0,sizeof o); o.engine=XG_ENGINE_CPU; if(gx){o.grid[0]=gx;o.grid[1]=gy;o.grid[2]=1;}
    double t=now(); int rc=xg_redblue(ctx,&a,&b,&o,&out,&st); t=now()-t;
    if(rc){fprintf(stderr,"rc %d\n",rc);return 1;}
    if(t<best){best=t;bp=st.seconds[XG_STAGE_PREPARE];bi=st.seconds[XG_STAGE_INTERSECT];bu=st.seconds[XG_STAGE_UNIQUE];}
    if(k==0)printf("grid %dx%d refs %llu %llu cand %llu bbox %llu n %zu\n",st.grid[0],st.grid[1],(unsigned long long)st.grid_refs_a,(unsigned long long)st.grid_refs_b,(unsigned long long)st.candidates,(unsigned long long)st.bbox_pairs,out.n);
    xg_contacts_free(&out);
  }
  printf("best %.4f prep %.4f int %.4f uniq %.4f\n",best,bp,bi,bu);
  return 0;
}
