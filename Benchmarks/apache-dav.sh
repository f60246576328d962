# Sourced by the WebDAV benchmarks: starts Apache httpd (mod_dav_fs) on a free loopback port with
# its own configuration (nothing of /etc/apache2 read), HTTP Basic auth, one line per request in an
# access log, and one collection per name given, each served from $SERVED/NAME.
#
#   start_apache WORK SERVED NAME...   sets PORT, ACCESS_LOG, USER_NAME, PASSWORD; stops Apache on exit
start_apache() {
    local work=$1 served=$2
    shift 2
    local apache=/usr/sbin/apache2 modules=/usr/lib/apache2/modules
    USER_NAME=seams
    PASSWORD=seams-bench-secret
    PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    mkdir -p "$work/apache/run" "$work/apache/empty"
    htpasswd -bc "$work/apache/htpasswd" "$USER_NAME" "$PASSWORD" >/dev/null 2>&1
    {
        echo "ServerRoot \"$work/apache\""
        echo "ServerName 127.0.0.1"
        echo "Listen 127.0.0.1:$PORT"
        echo "PidFile \"$work/apache/httpd.pid\""
        echo "ErrorLog \"$work/apache/error.log\""
        echo "LogLevel warn"
        echo "DefaultRuntimeDir \"$work/apache/run\""
        echo "Mutex file:$work/apache/run default"
        for module in mpm_event authz_core authn_core authn_file authz_user auth_basic alias mime dav dav_fs; do
            echo "LoadModule ${module}_module \"$modules/mod_$module.so\""
        done
        # mod_log_config is built into Debian's apache2: one line per request, to count them.
        echo "LogFormat \"%m %>s %B %D %U\" requests"
        echo "CustomLog \"$work/apache/access.log\" requests"
        echo "TypesConfig /etc/mime.types"
        echo "DocumentRoot \"$work/apache/empty\""
        echo "DavLockDB \"$work/apache/run/DavLock\""
        local name
        for name in "$@"; do
            mkdir -p "$served/$name"
            echo "Alias /$name \"$served/$name\""
        done
        echo "<Directory \"$served\">"
        echo "    Dav On"
        echo "    AuthType Basic"
        echo "    AuthName \"seams\""
        echo "    AuthUserFile \"$work/apache/htpasswd\""
        echo "    Require valid-user"
        echo "</Directory>"
    } >"$work/apache/httpd.conf"
    # Apache will not serve as root: then it runs as nobody with the capabilities to read and write
    # whatever root made in the served folders (as LocalWebDAVServer does for the tests).
    local launch=()
    if [ "$(id -u)" = 0 ]; then
        launch=(setpriv --reuid=65534 --regid=65534 --clear-groups
            --inh-caps=+dac_override,+fowner --ambient-caps=+dac_override,+fowner --pdeathsig KILL --)
    fi
    "${launch[@]}" "$apache" -f "$work/apache/httpd.conf" -X -DFOREGROUND </dev/null >"$work/apache/output.log" 2>&1 &
    APACHE_PID=$!
    # Added to the caller's own EXIT trap (a benchmark's busy loops), not in its place.
    local previous
    previous=$(trap -p EXIT | sed -E "s/^trap -- '(.*)' EXIT$/\1/")
    trap "kill \"\$APACHE_PID\" 2>/dev/null || true; wait \"\$APACHE_PID\" 2>/dev/null || true; ${previous:-:}" EXIT
    for _ in $(seq 200); do
        (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && break
        kill -0 "$APACHE_PID" 2>/dev/null || break
        sleep 0.05
    done
    if ! kill -0 "$APACHE_PID" 2>/dev/null || ! (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then
        echo "Apache did not start:" >&2
        cat "$work/apache/output.log" "$work/apache/error.log" >&2 2>/dev/null || true
        exit 1
    fi
    ACCESS_LOG=$work/apache/access.log
    touch "$ACCESS_LOG"
}
