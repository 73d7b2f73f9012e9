/*
 * Driver for Angelo Papenhoff's pulse-level PDP-1 model (aap/blincolnlights, pdp1/pdp1.c,
 * MIT licence) as the second differential oracle of pdp1 (issue 31; docs/testing.md, "aap's
 * pulse-level model"). Ours: it is compiled at test time together with the model's own
 * pdp1.c, ../common.c and ../pollfd.c from the checkout named by AAP_PDP1_SRC, into a
 * temporary directory of the test. None of the model's code is in this repository.
 *
 * It stands in for the model's main.c: it defines what main.c gives pdp1.c (updatelights,
 * doaudio), loads core and registers, presses START with spec() and then repeats what
 * main.c's loop does for a running machine: cycle(pdp); handleio(pdp); pdp->simtime += 5000.
 *
 * Protocol (stdin, whitespace-separated numbers, octal unless said otherwise):
 *
 *   P sbs16 muldiv sbm extend cycles(decimal) pc ac io ov pf ss tw corrections
 *   M n   then n pairs: address word
 *   T n   then n tape frames (the reader's tape; n may be 0)
 *   G     run it
 *
 * and for each program (stdout), one line after every memory cycle:
 *
 *   C time pc ac io ma mb ir ov pf next ios ioh sbm b1 b2 b3 b4 exd run
 *
 * (time in ns, decimal, at the end of the cycle; `next` the kind of the next cycle:
 * F fetch, D defer, E execute, B break), then the non-zero memory as "W address word" lines
 * and "E" - or "X signal" when the model crashed (an assertion of its own): then there is
 * no reference for that program.
 *
 * MA is the address of the cycle's memory access: the model clears MA at TP10 of a running
 * cycle, so it is sampled at TP9 through the light-update hook (`updatelights`), which the
 * model calls at one random time pulse per cycle: our rand() makes that TP9.
 *
 * `corrections` (bits) bridge documented differences (docs/testing.md), so that the rest
 * of the machine can still be compared:
 *   1: the punch's status bit is cleared when its line is punched (the model's `punon`
 *      never clears);
 *   2: the typewriter takes pdp1's 105/175/205 ms a character instead of a flat 100 ms;
 *   4: the reader requests a break only when it sets its status bit, not when it gives a
 *      completion pulse to a waiting rpa/rpb (the model requests one either way: "not sure
 *      about this, but seems annoying");
 *   8: the reader's next line is due one line time (2.5 ms) after the last one was due, not
 *      after the model's between-cycles service saw it (which a Type 10 mul/div in progress
 *      delays by up to 35 us);
 *  16: a punched line takes 1/63 s (15873015 ns, pdp1's figure from the handbook's 63 lines
 *      a second), not 15873000 ns;
 *  32: a dpy cancels the previous point's completion still to come (pdp1 restarts the
 *      display's timing at each dpy; the model lets a point already deflected finish, and
 *      its completion pulse then ends the new dpy's wait early).
 */
#include "common.h"
#include "pdp1.h"
#include <unistd.h>
#include <sys/wait.h>
#include <fcntl.h>

int doaudio;

static Word sampled_ma;

/* The model calls this once a cycle, at the time pulse that rand() picks (see rand below). */
void
updatelights(PDP1 *pdp, Panel *panel)
{
	(void)panel;
	sampled_ma = pdp->ema | pdp->ma;
}

/* The model draws `timernd = rand() % 5000` (ns into the cycle) to pick the time pulse at
 * which it updates the lights; 4049 is TP9 (2850..4049), after the cycle's memory access
 * and before TP10 clears MA. (pwrclr, the only other user of rand, is not called.) */
int
rand(void)
{
	return 4049;
}

/* The typewriter's time for a character in pdp1 (crates/pdp1-core, io/typewriter.rs). */
static u64
type_ns(int code)
{
	switch(code & 077) {
	case 077: return 205000000;			/* carriage return */
	case 034: case 035: case 072: case 074: return 175000000;	/* colour, case */
	default: return 105000000;
	}
}

static PDP1 pdp1;

static int
rd(unsigned *v)
{
	return scanf("%o", v) == 1;
}

static void
runprogram(PDP1 *pdp, long cycles, int corrections)
{
	int i;
	for(long n = 0; n < cycles && pdp->run; n++) {
		u64 typ0 = pdp->typ_time, p0 = pdp->p_time, d0 = pdp->dpy_defl_time;
		u16 b2 = pdp->b2;
		sampled_ma = 0;
		pdp->timernd = 0;
		cycle(pdp);
		if((corrections & 2) && typ0 == (u64)NEVER && pdp->typ_time != (u64)NEVER)
			pdp->typ_time += type_ns(pdp->tb) - 100000000;
		if((corrections & 32) && pdp->dpy_defl_time != d0 && pdp->dpy_defl_time != (u64)NEVER)
			pdp->dpy_time = NEVER;
		if((corrections & 16) && pdp->p_time != p0 && pdp->p_time != (u64)NEVER)
			pdp->p_time += 16;
		int rc = pdp->rc, rcp = pdp->rcp;
		u64 r0 = pdp->r_time;
		handleio(pdp);
		if((corrections & 8) && pdp->r_time != r0 && r0 != (u64)NEVER && pdp->rcl)
			pdp->r_time = r0 + 2500000;
		if((corrections & 4) && rc == 3 && pdp->rc == 0 && rcp) {
			/* (the model's req(pdp, RD_CHAN) undone) */
			if(pdp->sbs16)
				pdp->b2 = (pdp->b2 & ~(1 << 1)) | (b2 & (1 << 1));
			else
				pdp->b2 = b2;
		}
		if((corrections & 1) && pdp->punon && pdp->p_time == (u64)NEVER)
			pdp->punon = 0;
		pdp->simtime += 5000;
		char next = pdp->bc ? 'B' : !pdp->cyc ? 'F' : pdp->df1 ? 'D' : 'E';
		printf("C %llu %o %o %o %o %o %o %o %o %c %o %o %o %o %o %o %o %o %o\n",
			(unsigned long long)pdp->simtime, pdp->epc | pdp->pc, pdp->ac, pdp->io,
			sampled_ma, pdp->mb, pdp->ir, pdp->ov1, pdp->pf, next, pdp->ios,
			pdp->ioh, pdp->sbm, pdp->b1, pdp->b2, pdp->b3, pdp->b4, pdp->exd,
			pdp->run);
	}
	for(i = 0; i < MAXMEM; i++)
		if(pdp->core[i])
			printf("W %o %o\n", i, pdp->core[i]);
	printf("E\n");
	fflush(stdout);
}

int
main(void)
{
	char cmd[4];
	PDP1 *pdp = &pdp1;

	static char outbuf[1 << 16];
	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	while(scanf("%3s", cmd) == 1) {
		unsigned sbs16, muldiv, sbm, extend, pc, ac, io, ov, pf, ss, tw, corr, n, a, w;
		long cycles;
		if(cmd[0] != 'P')
			return 2;
		if(!rd(&sbs16) || !rd(&muldiv) || !rd(&sbm) || !rd(&extend) ||
		   scanf("%ld", &cycles) != 1 || !rd(&pc) || !rd(&ac) || !rd(&io) ||
		   !rd(&ov) || !rd(&pf) || !rd(&ss) || !rd(&tw) || !rd(&corr))
			return 2;
		memset(pdp, 0, sizeof(*pdp));
		pdp->dpy[0].fd.fd = pdp->dpy[1].fd.fd = -1;
		pdp->dpy[0].fd.id = pdp->dpy[1].fd.id = -1;
		pdp->typ_fd.fd = pdp->typ_fd.id = -1;
		pdp->r_fd = pdp->p_fd = -1;
		/* The device times pwrclr() gives (without its random registers). */
		pdp->r_time = pdp->p_time = pdp->typ_time = NEVER;
		pdp->dpy_defl_time = pdp->dpy_time = NEVER;
		pdp->penr = 5;
		pdp->muldiv_sw = muldiv;
		pdp->sbs16 = sbs16;
		if(scanf("%3s", cmd) != 1 || cmd[0] != 'M' || !rd(&n))
			return 2;
		while(n--) {
			if(!rd(&a) || !rd(&w))
				return 2;
			pdp->core[a % MAXMEM] = w & WORDMASK;
		}
		if(scanf("%3s", cmd) != 1 || cmd[0] != 'T' || !rd(&n))
			return 2;
		int tape[2] = { -1, -1 };
		if(n > 0 && pipe(tape) < 0)
			return 3;
		while(n--) {
			unsigned char c;
			if(!rd(&a))
				return 2;
			c = a;
			if(write(tape[1], &c, 1) != 1)
				return 3;
		}
		if(scanf("%3s", cmd) != 1 || cmd[0] != 'G')
			return 2;
		if(tape[1] >= 0)
			close(tape[1]);
		fflush(stdout);

		/* The program runs in a child, whose output the parent passes on only when it ends
		 * normally: a crash leaves an "X" line and nothing half-written. */
		int out[2];
		if(pipe(out) < 0)
			return 3;
		pid_t child = fork();
		if(child < 0)
			return 3;
		if(child == 0) {
			close(out[0]);
			if(dup2(out[1], 1) < 0)
				_exit(3);
			close(out[1]);
			/* (The model's assertion messages: a crash is reported as "X".) */
			int null = open("/dev/null", O_WRONLY);
			if(null >= 0)
				dup2(null, 2);
			pdp->r_fd = tape[0];
			/* START: spec() with the start switch, as main.c does on its edge. */
			pdp->ta = pc & ADDRMASK;
			pdp->eta = pc & EXTMASK;
			pdp->sbm_start_sw = sbm;
			pdp->start_sw = 1;
			spec(pdp);
			pdp->start_sw = 0;
			AC = ac;
			IO = io;
			pdp->ov1 = ov;
			pdp->pf = pf;
			pdp->ss = ss;
			pdp->tw = tw;
			pdp->exd = extend;
			runprogram(pdp, cycles, corr);
			_exit(0);
		}
		close(out[1]);
		if(tape[0] >= 0)
			close(tape[0]);
		size_t len = 0, cap = 1 << 16;
		char *buf = malloc(cap);
		ssize_t k;
		while(buf && (k = read(out[0], buf + len, cap - len)) > 0) {
			len += k;
			if(len == cap)
				buf = realloc(buf, cap *= 2);
		}
		close(out[0]);
		int status;
		if(buf == nil || waitpid(child, &status, 0) < 0)
			return 3;
		if(WIFSIGNALED(status))
			printf("X %d\n", WTERMSIG(status));
		else if(WEXITSTATUS(status) != 0)
			return 3;
		else
			fwrite(buf, 1, len, stdout);
		free(buf);
		fflush(stdout);
	}
	return 0;
}
