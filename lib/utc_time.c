/* Times as tools write them, to UTC as perfdb writes created_at. */
#include "utc_time.h"

#include <ctype.h>
#include <string.h>
#include <time.h>

/* n digits at *p, advanced past them; -1 when they are not all digits. */
static int digits(const char **p, int n)
{
	int v = 0;

	for (int i = 0; i < n; i++, (*p)++) {
		if (!isdigit((unsigned char)**p))
			return -1;
		v = v * 10 + (**p - '0');
	}
	return v;
}

/* "Z" (0), "+HH:MM", "-HH:MM", "+HHMM" in seconds east of UTC into *east;
 * 1 when there is none, -1 when it is something else. */
static int offset(const char *p, long *east)
{
	int sign, h, m;

	*east = 0;
	if (*p == '\0')
		return 1;
	if (strcmp(p, "Z") == 0)
		return 0;
	if (*p != '+' && *p != '-')
		return -1;
	sign = *p++ == '-' ? -1 : 1;
	h = digits(&p, 2);
	if (*p == ':')
		p++;
	m = digits(&p, 2);
	if (h < 0 || m < 0 || h > 23 || m > 59 || *p != '\0')
		return -1;
	*east = sign * (h * 3600L + m * 60L);
	return 0;
}

int pdb_utc_from_iso8601(const char *text, int naive_is_utc, char out[32])
{
	const char *p = text;
	struct tm tm = { 0 };
	int year, mon, day, hour, min, sec, naive;
	long east;
	time_t t;

	year = digits(&p, 4);
	if (year < 0 || *p++ != '-' || (mon = digits(&p, 2)) < 0 || *p++ != '-' ||
	    (day = digits(&p, 2)) < 0 || (*p != 'T' && *p != ' '))
		return -1;
	p++;
	if ((hour = digits(&p, 2)) < 0 || *p++ != ':' || (min = digits(&p, 2)) < 0 ||
	    *p++ != ':' || (sec = digits(&p, 2)) < 0)
		return -1;
	if (*p == '.' && isdigit((unsigned char)p[1]))
		for (p++; isdigit((unsigned char)*p); p++)
			;
	naive = offset(p, &east);
	if (naive < 0 || (naive && !naive_is_utc))
		return -1;
	if (year < 1970 || mon < 1 || mon > 12 || day < 1 || day > 31 || hour > 23 ||
	    min > 59 || sec > 59)
		return -1;
	tm.tm_year = year - 1900;
	tm.tm_mon = mon - 1;
	tm.tm_mday = day;
	tm.tm_hour = hour;
	tm.tm_min = min;
	tm.tm_sec = sec;
	t = timegm(&tm); /* normalises tm: 31 April comes back as 1 May */
	if (tm.tm_mday != day || tm.tm_mon != mon - 1)
		return -1;
	return pdb_utc_from_epoch((int64_t)t - east, out);
}

int pdb_utc_from_epoch(int64_t seconds, char out[32])
{
	time_t t = (time_t)seconds;
	struct tm tm;

	/* from 1970 to 9999: the four-digit years created_at sorts by */
	if (seconds < 0 || seconds > INT64_C(253402300799) || !gmtime_r(&t, &tm))
		return -1;
	strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
	return 0;
}
