/*
 * kbuild_pure.c: the parts of a build that read no file and run nothing
 * (kbuild.h's "pure parts"): the build key, the toolchain's identity and
 * rule, the first compiler error of a log, the names of the outcomes.
 */
#include "kbuild.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

const char *build_status_name(enum build_status s)
{
	switch (s) {
	case BUILD_OK:
		return "ok";
	case BUILD_FAILED:
		return "failed";
	case BUILD_CONFIG_ERROR:
		return "config-error";
	case BUILD_SETUP_ERROR:
		return "setup-error";
	}
	return "unknown";
}

void kbuild_key(const char *tree_id, const char *config_hash,
		const char *toolchain_id, char out[41])
{
	struct strbuf sb = STRBUF_INIT;
	strbuf_addf(&sb,
		    "iobisect build key 1\ntree %s\nconfig %s\ntoolchain %s\n",
		    tree_id, config_hash, toolchain_id);
	hash_hex(sb.buf, sb.len, out);
	strbuf_release(&sb);
}

char *kbuild_toolchain_id(const char *cc, const char *hostcc,
			  const char *version_line, const char *env_id)
{
	return xstrfmt("cc=%s hostcc=%s %s%s%s", cc, hostcc ? hostcc : cc,
		       version_line ? version_line : "",
		       env_id && *env_id ? " " : "", env_id ? env_id : "");
}

const struct toolchain_rule *
kbuild_pick_toolchain(const struct toolchain_rule *rules, size_t nr,
		      unsigned kver)
{
	for (size_t i = 0; i < nr; i++)
		if (kver_in_range(kver, &rules[i].range))
			return &rules[i];
	return NULL;
}

int kbuild_is_compiler_error(const char *line, size_t len)
{
	/* "path.c:12:3: error: ..." or "path.c:12: error: ..." */
	const char *colon = memchr(line, ':', len);
	if (!colon || colon == line)
		return 0;
	const char *p = colon + 1, *end = line + len;
	if (p >= end || *p < '0' || *p > '9')
		return 0;
	const char *e = memmem(p, (size_t)(end - p), "error:", 6);
	return e != NULL;
}

char *kbuild_first_error(const char *log)
{
	const char *fallback = NULL;
	size_t fallback_len = 0;
	for (const char *p = log; *p;) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		if (kbuild_is_compiler_error(p, len))
			return xstrndup(p, len);
		if (!fallback && (memmem(p, len, "Error ", 6) ||
				  memmem(p, len, "error:", 6))) {
			fallback = p;
			fallback_len = len;
		}
		p += len + (eol ? 1 : 0);
	}
	return fallback ? xstrndup(fallback, fallback_len) : NULL;
}

void build_result_release(struct build_result *res)
{
	free(res->image);
	free(res->log);
	free(res->first_error);
	free(res->message);
	memset(res, 0, sizeof(*res));
}
