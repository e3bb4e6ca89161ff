<?php
// PHP 8 prelude for FluxBB 1.5.11 in the live tests (php -d auto_prepend_file=this file).
//
// FluxBB 1.5.11 was written for PHP 5: it calls get_magic_quotes_gpc() and
// create_function(), removed in PHP 8, and its SQLite layer uses PHP's SQLite 2 functions
// (sqlite_open, sqlite_query, ...), removed in PHP 5.4. This file gives the board those
// functions again, the SQLite ones over PHP's SQLite3 class, so the real board runs
// unchanged on Debian's PHP 8.2. Values come back as strings (or NULL), as SQLite 2 gave them.

if (!function_exists('get_magic_quotes_gpc')) {
    function get_magic_quotes_gpc() { return false; }
}
if (!function_exists('get_magic_quotes_runtime')) {
    function get_magic_quotes_runtime() { return false; }
}
if (!function_exists('set_magic_quotes_runtime')) {
    function set_magic_quotes_runtime($on) { return false; }
}
if (!defined('MB_OVERLOAD_STRING')) {
    define('MB_OVERLOAD_STRING', 2);  // mbstring's overloading is gone; FluxBB still asks
}
if (!function_exists('create_function')) {
    function create_function($args, $code) {
        return eval('return function(' . $args . ') {' . $code . '};');
    }
}

if (!function_exists('sqlite_open')) {
    define('SQLITE_ASSOC', 1);
    define('SQLITE_NUM', 2);
    define('SQLITE_BOTH', 3);

    final class FluxCompatSqliteResult {
        public $rows = array();
        public $at = 0;
    }

    final class FluxCompatSqlite {
        public static $errors = array();
    }

    function sqlite_open($file, $mode = 0666, &$error = null) {
        try {
            $db = new SQLite3($file);
        } catch (Exception $e) {
            $error = $e->getMessage();
            return false;
        }
        $db->busyTimeout(10000);
        return $db;
    }

    function sqlite_popen($file, $mode = 0666, &$error = null) {
        return sqlite_open($file, $mode, $error);
    }

    function sqlite_query($db, $sql) {
        $found = @$db->query($sql);
        if ($found === false) {
            return false;
        }
        $result = new FluxCompatSqliteResult();
        if ($found instanceof SQLite3Result && $found->numColumns() > 0) {
            while (($row = $found->fetchArray(SQLITE3_ASSOC)) !== false) {
                foreach ($row as $key => $value) {
                    $row[$key] = $value === null ? null : (string) $value;
                }
                $result->rows[] = $row;
            }
            $found->finalize();
        }
        return $result;
    }

    function sqlite_unbuffered_query($db, $sql) { return sqlite_query($db, $sql); }

    function sqlite_last_error($db) { return $db->lastErrorCode(); }

    function sqlite_error_string($code) { return 'SQLite error ' . $code; }

    function sqlite_seek($result, $row) {
        if ($row < 0 || $row >= count($result->rows)) {
            return false;
        }
        $result->at = $row;
        return true;
    }

    function _flux_compat_shape($row, $type) {
        if ($type == SQLITE_ASSOC) {
            return $row;
        }
        $numbered = array_values($row);
        return $type == SQLITE_NUM ? $numbered : $row + $numbered;
    }

    function sqlite_current($result, $type = SQLITE_BOTH) {
        if (!isset($result->rows[$result->at])) {
            return false;
        }
        return _flux_compat_shape($result->rows[$result->at], $type);
    }

    function sqlite_fetch_array($result, $type = SQLITE_BOTH) {
        $row = sqlite_current($result, $type);
        if ($row !== false) {
            $result->at++;
        }
        return $row;
    }

    function sqlite_num_rows($result) { return count($result->rows); }

    function sqlite_changes($db) { return $db->changes(); }

    function sqlite_last_insert_rowid($db) { return $db->lastInsertRowID(); }

    function sqlite_escape_string($text) { return SQLite3::escapeString((string) $text); }

    function sqlite_close($db) { return $db->close(); }

    function sqlite_libversion() { return SQLite3::version()['versionString']; }
}
