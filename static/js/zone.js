// The phone's time zone (its IANA name), asked in a worker: the first call to Intl's date
// formatting loads the phone's zone and locale data, a long task on a cheap phone that
// would hold up the page (static/js/app.js rememberTimeZone).
postMessage(Intl.DateTimeFormat().resolvedOptions().timeZone || "");
