/* Plain driver for fuzz targets: runs every file given on the command line
 * (or every file in the directories given) through LLVMFuzzerTestOneInput
 * once, so the corpus is replayed in the normal test run without libFuzzer
 * (as lz4's ossfuzz/standaloneengine.c does). */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		fprintf(stderr, "cannot open %s\n", path);
		return 1;
	}
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	rewind(f);
	uint8_t *buf = malloc(n > 0 ? (size_t)n : 1);
	if (!buf || fread(buf, 1, (size_t)n, f) != (size_t)n) {
		fclose(f);
		free(buf);
		return 1;
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, (size_t)n);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	int files = 0, rc = 0;
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) != 0) {
			fprintf(stderr, "cannot stat %s\n", argv[i]);
			return 1;
		}
		if (S_ISDIR(st.st_mode)) {
			DIR *d = opendir(argv[i]);
			struct dirent *e;
			while (d && (e = readdir(d))) {
				if (e->d_name[0] == '.')
					continue;
				char p[4096];
				snprintf(p, sizeof p, "%s/%s", argv[i], e->d_name);
				rc |= run_file(p);
				files++;
			}
			if (d)
				closedir(d);
		} else {
			rc |= run_file(argv[i]);
			files++;
		}
	}
	/* Also exercise the empty input, always. */
	LLVMFuzzerTestOneInput((const uint8_t *)"", 0);
	printf("replayed %d corpus file(s)\n", files);
	return rc;
}
