/* Replaying a CAT by its name (citcat/replay.h, citcat_cat_replay_*): the
 * IMS and AES extracted from it into a directory (the caller's, or a
 * temporary one of its own), then citcat_replay_run on them with the CAT as
 * the bus trace to verify against.  What `citcat report` and `citcat
 * profile` do before they look at the records. */
#include "aes.h"
#include "citcat.h"
#include "ims.h"
#include "replay.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct citcat_cat_replay {
	char *cat;
	char *own_dir; /* the directory made here (removed on close), or NULL */
	char ims_path[4200], aes_path[4200];
	int have_ims, have_aes; /* the files were written (removed on close) */
	struct citcat_ims ims;
	struct citcat_ims_stats ist;
	struct citcat_aes_stats ast;
};

void citcat_cat_replay_close(struct citcat_cat_replay *h)
{
	if (!h)
		return;
	citcat_ims_fini(&h->ims);
	if (h->have_ims)
		unlink(h->ims_path);
	if (h->have_aes)
		unlink(h->aes_path);
	if (h->own_dir)
		rmdir(h->own_dir);
	free(h->own_dir);
	free(h->cat);
	free(h);
}

int citcat_cat_replay_open(struct citcat_cat_replay **hp, const char *cat_path, const char *dir,
			   struct citcat_errinfo *err)
{
	struct citcat_errinfo dummy;
	err = cc_errinfo_start(err, &dummy);
	if (hp)
		*hp = NULL;
	if (!hp || !cat_path)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "citcat_cat_replay_open: NULL argument");
	struct citcat_cat_replay *h = calloc(1, sizeof *h);
	if (!h || !(h->cat = strdup(cat_path))) {
		free(h);
		return citcat_errinfo_set(err, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
	}
	if (!dir) {
		const char *tmpdir = getenv("TMPDIR");
		char buf[4096];
		snprintf(buf, sizeof buf, "%s/citcat-replay-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
		if (!mkdtemp(buf)) {
			int e = errno;
			citcat_cat_replay_close(h);
			return citcat_errinfo_set(err, CITCAT_ERR_IO, UINT64_MAX, "cannot make a temporary directory: %s",
						  strerror(e));
		}
		if (!(h->own_dir = strdup(buf))) {
			rmdir(buf);
			citcat_cat_replay_close(h);
			return citcat_errinfo_set(err, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
		}
		dir = h->own_dir;
	}
	snprintf(h->ims_path, sizeof h->ims_path, "%s/run.ims", dir);
	snprintf(h->aes_path, sizeof h->aes_path, "%s/run.aes", dir);
	int rc = citcat_ims_extract(cat_path, &h->ims, &h->ist, NULL, NULL, err);
	if (!rc) {
		h->have_ims = 1; /* a failed write leaves no file; unlink is harmless */
		rc = citcat_ims_write(&h->ims, h->ims_path, err);
	}
	if (!rc) {
		h->have_aes = 1;
		rc = citcat_aes_extract(cat_path, h->aes_path, &h->ast, NULL, NULL, err);
	}
	if (rc) {
		citcat_cat_replay_close(h);
		return rc;
	}
	*hp = h;
	return 0;
}

const struct citcat_ims *citcat_cat_replay_ims(const struct citcat_cat_replay *h) { return h ? &h->ims : NULL; }

const char *citcat_cat_replay_ims_path(const struct citcat_cat_replay *h) { return h ? h->ims_path : NULL; }

const char *citcat_cat_replay_aes_path(const struct citcat_cat_replay *h) { return h ? h->aes_path : NULL; }

int citcat_cat_replay_run(struct citcat_cat_replay *h, const struct citcat_replay_config *ucfg,
			  struct citcat_replay_result *res, struct citcat_errinfo *err)
{
	struct citcat_errinfo dummy;
	err = cc_errinfo_start(err, &dummy);
	if (!h || !res)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "citcat_cat_replay_run: NULL argument");
	struct citcat_replay_config c;
	citcat_replay_config_default(&c);
	/* the caller's struct may be older or newer than ours (citcat/base.h);
	 * its paths are ours to set */
	if (ucfg && cc_config_from_user(&c, sizeof c, ucfg, offsetof(struct citcat_replay_config, aes_path) +
							       sizeof c.aes_path))
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "citcat_cat_replay_run: bad configuration size");
	c.ims_path = h->ims_path;
	c.aes_path = h->aes_path;
	c.verify_cat = h->cat;
	int rc = citcat_replay_run(&c, res, err);
	/* an error in the files extracted here is one in the CAT */
	if (res->err_path == c.ims_path || res->err_path == c.aes_path)
		res->err_path = h->cat;
	return rc;
}
