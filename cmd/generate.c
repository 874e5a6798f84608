/* perfdb --generate KIND: the blocks of the manual's sources (docs/cmd/)
 * and the bash completion, made from the command tables (each
 * cmd/NAME.c's options and text) and the format registry, and the tables
 * as text for the tests that check them. */
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "formats/format.h"
#include "util.h"

/* The Markdown blocks of the manual's sources (docs/cmd/NAME.md), which
 * scripts/docs-options.sh writes between their markers (make docs) and
 * scripts/gen-man.sh turns into the man pages without running perfdb. */

/* "## SYNOPSIS" of cmd: its usage line. */
static void md_head(FILE *out, const struct command *cmd)
{
	fprintf(out, "# perfdb-%s(1)\n\n## NAME\n\nperfdb-%s - %s\n\n## SYNOPSIS\n\n"
		"`perfdb %s%s%s`\n", cmd->name, cmd->name, cmd->summary, cmd->name,
		*cmd->synopsis ? " " : "", cmd->synopsis);
}

/* Text for Markdown: the characters it would read as markup escaped. */
static void md_text(FILE *out, const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++) {
		if (strchr("\\`*_[]<>|", s[i]))
			fputc('\\', out);
		fputc(s[i], out);
	}
}

/* "## OPTIONS": a "### `-F`, `--format FMT`" section per option with its
 * help (the default from the table); then "## NOTES", the command's -h
 * text, its indented lines a code block. */
static void md_options(FILE *out, const struct command *cmd)
{
	size_t n;
	const struct cmd_option **opts = cmd_options(cmd, &n);
	const char *text = cmd->text ? cmd->text : "";
	int code = 0;

	fputs("## OPTIONS\n", out);
	for (size_t i = 0; i < n; i++) {
		char *help = cmd_option_help(opts[i]);
		fputs("\n### ", out);
		if (opts[i]->val < CMD_LONG_ONLY)
			fprintf(out, "`-%c`, ", opts[i]->val);
		fprintf(out, "`--%s%s%s`\n\n", opts[i]->name, opts[i]->arg ? " " : "",
			opts[i]->arg ? opts[i]->arg : "");
		for (char *p = help; *p; p++)
			if (*p == '\n')
				*p = ' ';
		md_text(out, help, strlen(help));
		fputc('\n', out);
		free(help);
	}
	if (*text)
		fputs("\n## NOTES\n\n", out);
	while (*text) {
		size_t len = strcspn(text, "\n");
		int indented = text[0] == ' ';
		if (indented != code)
			fputs(code ? "\n" : "\n", out);
		code = indented;
		if (indented)
			fprintf(out, "    %.*s\n", (int)len, text);
		else {
			md_text(out, text, len);
			fputc('\n', out);
		}
		text += len + (text[len] == '\n');
	}
	free(opts);
}

/* perfdb(1)'s list of the commands' pages. */
static void md_commands(FILE *out)
{
	fputs("## COMMANDS\n", out);
	for (size_t i = 0; commands[i]; i++)
		fprintf(out, "\n### perfdb-%s(1)\n\n%s\n", commands[i]->name, commands[i]->summary);
}

/* perfdb-formats(7)'s list: the registry's formats. */
static void md_formats(FILE *out)
{
	fputs("## FORMATS\n", out);
	for (size_t i = 0; pdb_formats[i]; i++) {
		fprintf(out, "\n### %s\n\n", pdb_formats[i]->name);
		md_text(out, pdb_formats[i]->summary, strlen(pdb_formats[i]->summary));
		fputc('\n', out);
	}
}

/* The tables, one option a line: command, letter (- when none), long
 * name, value (- for a flag), choices (comma-separated, - when any),
 * default (- when none). */
static void options_text(FILE *out)
{
	for (size_t i = 0; commands[i]; i++) {
		size_t n;
		const struct cmd_option **opts = cmd_options(commands[i], &n);
		for (size_t k = 0; k < n; k++) {
			const struct cmd_option *o = opts[k];
			fprintf(out, "%s\t%c\t%s\t%s\t", commands[i]->name,
				o->val < CMD_LONG_ONLY ? o->val : '-', o->name, o->arg ? o->arg : "-");
			for (size_t c = 0; o->choices && o->choices[c]; c++)
				fprintf(out, "%s%s", c ? "," : "", o->choices[c]);
			fprintf(out, "%s\t%s\n", o->choices ? "" : "-", o->def ? o->def : "-");
		}
		free(opts);
	}
}

/* The compgen call that completes an option's value, from its choices or
 * the kind its arg names (FILE, DIR, RUN, FORMAT); empty when it is a
 * number, a glob, K=V: nothing to offer. */
static void value_completion(struct pdb_buf *b, const struct cmd_option *o)
{
	size_t len = strlen(o->arg);

	if (o->choices) {
		pdb_buf_puts(b, "COMPREPLY=($(compgen -W '");
		for (size_t c = 0; o->choices[c]; c++)
			pdb_buf_printf(b, "%s%s", c ? " " : "", o->choices[c]);
		pdb_buf_puts(b, "' -- \"$cur\"))");
	} else if (strcmp(o->arg, "DIR") == 0) {
		pdb_buf_puts(b, "COMPREPLY=($(compgen -d -- \"$cur\"))");
	} else if (strcmp(o->arg, "RUN") == 0) {
		pdb_buf_puts(b, "COMPREPLY=($(compgen -W \"$(_perfdb_runs)\" -- \"$cur\"))");
	} else if (strcmp(o->arg, "FORMAT") == 0) {
		pdb_buf_puts(b, "COMPREPLY=($(compgen -W \"$(_perfdb_formats)\" -- \"$cur\"))");
	} else if (strstr(o->arg, "FILE") || (len > 5 && strcmp(o->arg + len - 5, ".yaml") == 0)) {
		pdb_buf_puts(b, "COMPREPLY=($(compgen -f -- \"$cur\"))");
	}
}

/* "-F|--format" */
static void option_pattern(FILE *out, const struct cmd_option *o)
{
	if (o->val < CMD_LONG_ONLY)
		fprintf(out, "-%c|", o->val);
	fprintf(out, "--%s", o->name);
}

static void bash_command(FILE *out, const struct command *cmd)
{
	size_t n;
	const struct cmd_option **opts = cmd_options(cmd, &n);
	int others = 0;
	struct pdb_buf b;

	pdb_buf_init(&b);
	fprintf(out, "\t%s)\n\t\tcase $prev in\n", cmd->name);
	for (size_t i = 0; i < n; i++) {
		if (!opts[i]->arg)
			continue;
		b.len = 0;
		value_completion(&b, opts[i]);
		if (!b.len)
			continue;
		fputs("\t\t", out);
		option_pattern(out, opts[i]);
		fprintf(out, ") %s; return;;\n", b.data);
	}
	/* the other options' values: nothing to offer, but not an operand either */
	for (size_t i = 0; i < n; i++) {
		if (!opts[i]->arg)
			continue;
		b.len = 0;
		value_completion(&b, opts[i]);
		if (b.len)
			continue;
		fputs(others++ ? "|" : "\t\t", out);
		option_pattern(out, opts[i]);
	}
	pdb_buf_release(&b);
	fputs(others ? ") return;;\n\t\tesac\n" : "\t\tesac\n", out);
	fputs("\t\tcase $cur in\n\t\t-*) COMPREPLY=($(compgen -W '", out);
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%s--%s", i ? " " : "", opts[i]->name);
	fputs("' -- \"$cur\"));;\n\t\t*) ", out);
	if (cmd->kinds) {
		fputs("if ! _perfdb_has_word", out);
		for (size_t k = 0; cmd->kinds[k]; k++)
			fprintf(out, " %s", cmd->kinds[k]);
		fputs("; then COMPREPLY=($(compgen -W '", out);
		for (size_t k = 0; cmd->kinds[k]; k++)
			fprintf(out, "%s%s", k ? " " : "", cmd->kinds[k]);
		fputs("' -- \"$cur\")); return; fi; ", out);
	}
	switch (cmd->operand) {
	case CMD_OPERAND_RUN: fputs("COMPREPLY=($(compgen -W \"$(_perfdb_runs)\" -- \"$cur\"))", out); break;
	case CMD_OPERAND_FILE: fputs("COMPREPLY=($(compgen -f -- \"$cur\"))", out); break;
	case CMD_OPERAND_COMMAND: fputs("COMPREPLY=($(compgen -W \"$_perfdb_commands\" -- \"$cur\"))", out); break;
	case CMD_OPERAND_NONE: fputs(":", out); break;
	}
	fputs(";;\n\t\tesac;;\n", out);
	free(opts);
}

static const char bash_head[] =
	"# bash completion for perfdb: generated by perfdb --generate complete-bash\n"
	"# from the option tables that parse perfdb's options (cmd/*.c).\n"
	"\n"
	"# the runs of the database the command line names (--db), as selectors\n"
	"_perfdb_runs()\n"
	"{\n"
	"\tperfdb ${_perfdb_db:+--db \"$_perfdb_db\"} runs 2>/dev/null |\n"
	"\t\tawk 'NR > 1 { print $1; if ($2 != \"-\") print $2 }'\n"
	"\techo latest\n"
	"}\n"
	"\n"
	"_perfdb_formats()\n"
	"{\n"
	"\tperfdb ingest --list-formats 2>/dev/null | awk '{ print $1 }'\n"
	"}\n"
	"\n"
	"# is one of the words given on the command line after the command?\n"
	"_perfdb_has_word()\n"
	"{\n"
	"\tlocal w i\n"
	"\tfor ((i = _perfdb_at + 1; i < COMP_CWORD; i++)); do\n"
	"\t\tfor w; do [ \"${COMP_WORDS[i]}\" = \"$w\" ] && return 0; done\n"
	"\tdone\n"
	"\treturn 1\n"
	"}\n"
	"\n"
	"_perfdb()\n"
	"{\n"
	"\tlocal cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}\n"
	"\tlocal i w cmd= _perfdb_db= _perfdb_at=0\n"
	"\t# --format=VALUE: bash splits the word at '='\n"
	"\tif [ \"$cur\" = = ]; then cur=; elif [ \"$prev\" = = ]; then prev=${COMP_WORDS[COMP_CWORD - 2]}; fi\n"
	"\tfor ((i = 1; i < COMP_CWORD; i++)); do\n"
	"\t\tw=${COMP_WORDS[i]}\n"
	"\t\tcase $w in\n"
	"\t\t--db) # --db=FILE comes as three words: --db = FILE\n"
	"\t\t\t[ \"${COMP_WORDS[i + 1]}\" = = ] && ((i++))\n"
	"\t\t\t_perfdb_db=${COMP_WORDS[i + 1]}; ((i++));;\n"
	"\t\t--db=*) _perfdb_db=${w#--db=};;\n"
	"\t\t-*) ;;\n"
	"\t\t*) [ -n \"$cmd\" ] || { cmd=$w; _perfdb_at=$i; };;\n"
	"\t\tesac\n"
	"\tdone\n"
	"\tif [ -z \"$cmd\" ]; then\n"
	"\t\tcase $prev in --db) COMPREPLY=($(compgen -f -- \"$cur\")); return;; esac\n"
	"\t\tcase $cur in\n"
	"\t\t-*) COMPREPLY=($(compgen -W '--db --help --version --generate' -- \"$cur\"));;\n"
	"\t\t*) COMPREPLY=($(compgen -W \"$_perfdb_commands\" -- \"$cur\"));;\n"
	"\t\tesac\n"
	"\t\treturn\n"
	"\tfi\n"
	"\tcase $cmd in\n";

static void complete_bash(FILE *out)
{
	fputs("_perfdb_commands='", out);
	for (size_t i = 0; commands[i]; i++)
		fprintf(out, "%s%s", i ? " " : "", commands[i]->name);
	fputs("'\n\n", out);
	fputs(bash_head, out);
	for (size_t i = 0; commands[i]; i++)
		bash_command(out, commands[i]);
	fputs("\tesac\n}\ncomplete -o filenames -F _perfdb perfdb\n", out);
}

/* zsh: the bash completion, run by zsh's bashcompinit. The file is
 * autoloaded as _perfdb (#compdef); its body defines the bash functions,
 * _perfdb among them, and answers the completion that loaded it. */
static void complete_zsh(FILE *out)
{
	fputs("#compdef perfdb\n"
	      "# zsh completion for perfdb: generated by perfdb --generate complete-zsh,\n"
	      "# the bash completion below run by zsh's bashcompinit.\n"
	      "autoload -U +X bashcompinit && bashcompinit\n\n", out);
	complete_bash(out);
	fputs("\n# loaded by the first completion of perfdb: answer it too\n"
	      "(( ${+compstate} )) && _bash_complete -o filenames -F _perfdb\n", out);
}

int cmd_generate(const char *kind, FILE *out)
{
	static const char head[] = "md-head-", opts[] = "md-options-";

	if (strcmp(kind, "md-commands") == 0) {
		md_commands(out);
		return PDB_EXIT_OK;
	}
	if (strcmp(kind, "md-formats") == 0) {
		md_formats(out);
		return PDB_EXIT_OK;
	}
	if (strcmp(kind, "complete-bash") == 0) {
		complete_bash(out);
		return PDB_EXIT_OK;
	}
	if (strcmp(kind, "complete-zsh") == 0) {
		complete_zsh(out);
		return PDB_EXIT_OK;
	}
	if (strcmp(kind, "options") == 0) {
		options_text(out);
		return PDB_EXIT_OK;
	}
	for (size_t i = 0; commands[i]; i++) {
		if (strncmp(kind, head, sizeof head - 1) == 0 &&
		    strcmp(kind + sizeof head - 1, commands[i]->name) == 0) {
			md_head(out, commands[i]);
			return PDB_EXIT_OK;
		}
		if (strncmp(kind, opts, sizeof opts - 1) == 0 &&
		    strcmp(kind + sizeof opts - 1, commands[i]->name) == 0) {
			md_options(out, commands[i]);
			return PDB_EXIT_OK;
		}
	}
	fprintf(stderr, "perfdb: --generate: unknown kind '%s' (md-head-COMMAND, md-options-COMMAND, "
		"md-commands, md-formats, complete-bash, complete-zsh, options)\n", kind);
	return PDB_EXIT_USAGE;
}
