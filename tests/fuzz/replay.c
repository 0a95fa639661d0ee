// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Replays inputs through a fuzz target without libFuzzer, so that
 * `make check` runs every target's properties on its seed corpus and on
 * the inputs that once broke it (tests/fuzz/regress/<target>/), built
 * with ASan and UBSan.  Arguments are files or directories; a directory
 * is read in name order.  A property that fails aborts, which fails the
 * test; so does having nothing to replay.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static unsigned long replayed;

static void replay_file(const char *path, off_t size)
{
	/* Exactly the input's size, so that ASan sees a read past it. */
	uint8_t *buf = malloc(size ? size : 1);
	FILE *f = fopen(path, "rb");

	if (!buf || !f || fread(buf, 1, size, f) != (size_t)size) {
		perror(path);
		exit(2);
	}
	fclose(f);
	LLVMFuzzerTestOneInput(buf, size);
	free(buf);
	replayed++;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static void replay_path(const char *path)
{
	struct dirent **names;
	struct stat st;
	char sub[4096];
	int n, i;

	if (stat(path, &st)) {
		/* A target without regression inputs has no directory. */
		return;
	}
	if (!S_ISDIR(st.st_mode)) {
		replay_file(path, st.st_size);
		return;
	}
	n = scandir(path, &names, NULL, by_name);
	if (n < 0) {
		perror(path);
		exit(2);
	}
	for (i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.') {
			snprintf(sub, sizeof(sub), "%s/%s", path, names[i]->d_name);
			replay_path(sub);
		}
		free(names[i]);
	}
	free(names);
}

int main(int argc, char **argv)
{
	int i;

	if (LLVMFuzzerInitialize)
		LLVMFuzzerInitialize(&argc, &argv);
	for (i = 1; i < argc; i++)
		replay_path(argv[i]);
	if (!replayed) {
		fprintf(stderr, "%s: no input to replay\n", argv[0]);
		return 1;
	}
	printf("%s: %lu inputs replayed\n", argv[0], replayed);
	return 0;
}
