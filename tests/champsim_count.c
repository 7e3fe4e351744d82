/* Test helper: counts the records of a ChampSim trace on standard input
 * (64-byte input_instr records, formats/CHAMPSIM.md) and prints
 * "RECORDS BRANCHES TAKEN": how many have is_branch (byte 8) and
 * branch_taken (byte 9) set.  Exit 1 when the input is not whole records. */
#include <stdio.h>

int main(void)
{
	static unsigned char buf[64 * 4096];
	unsigned long long recs = 0, branches = 0, taken = 0;
	size_t have = 0, n;
	while ((n = fread(buf + have, 1, sizeof buf - have, stdin)) > 0) {
		have += n;
		size_t whole = have / 64 * 64;
		for (size_t i = 0; i < whole; i += 64) {
			recs++;
			branches += buf[i + 8] != 0;
			taken += buf[i + 9] != 0;
		}
		for (size_t i = whole; i < have; i++)
			buf[i - whole] = buf[i];
		have -= whole;
	}
	printf("%llu %llu %llu\n", recs, branches, taken);
	return have ? 1 : 0;
}
