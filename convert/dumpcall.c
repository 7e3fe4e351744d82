/* citcat_dump_open / citcat_dump_run (<citcat/convert.h>): the format
 * registry picks the dumper of a file (formats/dump.h); the program image an
 * SDC-LSP stream decodes against is loaded here.  Moved from the tool
 * (cli/cmd_dump.c, cli/formats_cli.c), messages unchanged. */
#include "convert_int.h"

#include "dump.h"
#include "registry.h"

#include <stdlib.h>
#include <string.h>

struct citcat_dump {
	char *path;
	const struct citcat_format *f;
	citcat_dump_fn fn;
	struct citcat_dump_opts o;
	char *itrace;
	struct citcat_image *img;
	struct citcat_ims ims;
};

/* The dumper of each format; NULL until one exists. */
static const citcat_dump_fn dumpers[CITCAT_FMT_COUNT] = {
	[CITCAT_FMT_CAT] = citcat_dump_cat,       [CITCAT_FMT_ITRACE] = citcat_dump_itrace,
	[CITCAT_FMT_IMS] = citcat_dump_ims,       [CITCAT_FMT_AES] = citcat_dump_aes,
	[CITCAT_FMT_LVT] = citcat_dump_lvt,       [CITCAT_FMT_DAF] = citcat_dump_daf,
	[CITCAT_FMT_DIN] = citcat_dump_addr,      [CITCAT_FMT_XDIN] = citcat_dump_addr,
	[CITCAT_FMT_PDATS] = citcat_dump_addr,    [CITCAT_FMT_PDATS2] = citcat_dump_addr,
	[CITCAT_FMT_SDCLSP] = citcat_dump_sdclsp,
};

static int open_checked(struct citcat_dump *d, struct cv *v, const char *path, const struct citcat_dump_config *c)
{
	const struct citcat_format *f;
	int rc = cv_detect(v, path, &f);
	if (rc)
		return rc;
	if (!f)
		return cv_msg(v, CITCAT_ERR_MAGIC, "%s: offset 0: not a file citcat recognises", path);
	citcat_dump_fn fn = f->id > 0 && f->id < CITCAT_FMT_COUNT ? dumpers[f->id] : NULL;
	if (!fn)
		return cv_msg(v, CITCAT_ERR_UNSUPPORTED, "%s: a %s; dump does not read it yet (see formats/DUMP.md)", path,
			      f->what);
	/* the inputs an LVT, DAF or SDC-LSP file's records decode against */
	int flow = f->id == CITCAT_FMT_LVT || f->id == CITCAT_FMT_DAF;
	if ((c->itrace && !flow) || (c->image && f->id != CITCAT_FMT_SDCLSP))
		return cv_usage(v, "%s: a %s does not take %s", path, f->what, c->itrace && !flow ? "--itrace" : "--image");
	if (flow && !c->itrace)
		return cv_usage(v, "%s: the records of a %s decode only against the program flow: give --itrace "
				   "RUN.itrace (the capture's --oracle, or what replay regenerated)",
				path, f->what);
	if (f->id == CITCAT_FMT_SDCLSP && !c->image)
		return cv_usage(v, "%s: an SDC-LSP stream decodes only with the program image: give --image "
				   "RUN.ims or --image FIRMWARE.elf",
				path);
	d->f = f;
	d->fn = fn;
	if (c->image && (rc = cv_load_image(v, c->image, &d->img, &d->ims)))
		return rc;
	d->o.image = d->img;
	return 0;
}

int citcat_dump_open(struct citcat_dump **d, const char *path, const struct citcat_dump_config *cfg,
		     struct citcat_convert_result *res, struct citcat_errinfo *err)
{
	struct citcat_convert_result local;
	struct cv v;
	cv_init(&v, &local, err);
	if (d)
		*d = NULL;
	if (!d || !path || !cfg || cfg->size < sizeof(struct citcat_dump_config) || (res && res->size < sizeof *res))
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "%s",
					  !d || !path || !cfg ? "NULL argument" : "size too small");
	struct citcat_dump *h = calloc(1, sizeof *h);
	if (!h || !(h->path = strdup(path)) || (cfg->itrace && !(h->itrace = strdup(cfg->itrace)))) {
		citcat_dump_close(h);
		return citcat_errinfo_set(err, CITCAT_ERR_NOMEM, UINT64_MAX, "out of memory");
	}
	h->o.size = sizeof h->o;
	h->o.from = cfg->from;
	h->o.count = cfg->has_count ? cfg->count : UINT64_MAX;
	h->o.itrace = h->itrace;
	int rc = open_checked(h, &v, path, cfg);
	if (rc) {
		citcat_dump_close(h);
		h = NULL;
	}
	*d = h;
	if (res) {
		local.size = res->size;
		*res = local;
	}
	return rc;
}

const char *citcat_dump_format(const struct citcat_dump *d) { return d && d->f ? d->f->name : NULL; }

int citcat_dump_run(struct citcat_dump *d, const struct citcat_dump_sink *sink, struct citcat_errinfo *err)
{
	if (err)
		memset(err, 0, sizeof *err);
	if (!d || !sink || !d->fn)
		return citcat_errinfo_set(err, CITCAT_ERR_INVAL, UINT64_MAX, "NULL argument");
	struct citcat_errinfo local = {0};
	return d->fn(d->path, &d->o, sink, err ? err : &local);
}

void citcat_dump_close(struct citcat_dump *d)
{
	if (!d)
		return;
	if (d->img || d->ims.memory)
		cv_free_image(d->img, &d->ims);
	free(d->path);
	free(d->itrace);
	free(d);
}
