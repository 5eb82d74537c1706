//! The command line of `konane-gui`: where to listen and which engines the page may
//! use, given with `-engine key=value...` as the referee takes them.

use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::client::{EngineKeys, EngineSpec, Limits, ProcessSpec};

/// The help text.
pub const USAGE: &str = "\
Usage: konane-gui [--host <addr>] [--port <n>] [-engine cmd=<path> [key=value]...]...

Serves a page for playing, watching and analysing Konane with UGI/UCI engines.

  --host <addr>     address to listen on (default 127.0.0.1; anything else is
                    reachable by other machines: a warning is printed)
  --port <n>        port (default 8080; 0 picks a free one)
  -engine ...       an engine the page may use (repeat for more); keys as the referee's:
      cmd=<path>          program (found on PATH when it has no '/')
      name=<name>         name on the page (default: the program's file name)
      arg=<arg>           one command-line argument (repeat for more)
      dir=<dir>           working directory
      option.<Name>=<v>   sent as 'setoption name <Name> value <v>'
      proto=ugi|uci       skip protocol detection
      tc=, st=, depth=, nodes=, timemargin=   checked, then ignored: the page sets limits
  With no -engine, the bundled 'konane' next to this program is used.
";

/// What the command line asks for.
#[derive(Clone, Debug, PartialEq)]
pub struct GuiConfig {
    /// Address to bind.
    pub host: String,
    /// Port to bind (0: any free port).
    pub port: u16,
    /// The engines, in command-line order.
    pub engines: Vec<EngineChoice>,
}

/// An engine the page can choose.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineChoice {
    /// Its name on the page.
    pub name: String,
    /// How to start it (its limits are unused: the page chooses them).
    pub spec: EngineSpec,
}

/// A command line that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CliError {
    /// `--help` was given.
    #[error("{USAGE}")]
    Help,
    /// Anything wrong, said in a sentence.
    #[error("{0} (see --help)")]
    Invalid(String),
}

fn invalid(text: impl Into<String>) -> CliError {
    CliError::Invalid(text.into())
}

/// Reads a command line (without the program name); `bundled` is the engine used when
/// none is given.
pub fn parse(args: &[String], bundled: &Path) -> Result<GuiConfig, CliError> {
    let mut config = GuiConfig {
        host: "127.0.0.1".into(),
        port: 8080,
        engines: Vec::new(),
    };
    let mut i = 0;
    while i < args.len() {
        let arg = args[i].as_str();
        i += 1;
        let mut value = || {
            let v = args.get(i).cloned();
            i += 1;
            v.ok_or_else(|| invalid(format!("{arg} needs a value")))
        };
        match arg {
            "-h" | "-help" | "--help" => return Err(CliError::Help),
            "--host" | "-host" => config.host = value()?,
            "--port" | "-port" => {
                let v = value()?;
                config.port = v
                    .parse()
                    .map_err(|_| invalid(format!("--port: '{v}' is not a port number")))?;
            }
            "-engine" | "--engine" => {
                let start = i;
                while i < args.len() && !args[i].starts_with('-') && args[i].contains('=') {
                    i += 1;
                }
                let n = config.engines.len() + 1;
                config.engines.push(engine(&args[start..i], n)?);
            }
            other => return Err(invalid(format!("unknown argument '{other}'"))),
        }
    }
    if config.engines.is_empty() {
        config.engines.push(EngineChoice {
            name: "konane".into(),
            spec: spec_for(PathBuf::from(bundled)),
        });
    }
    let mut names: Vec<&str> = config.engines.iter().map(|e| e.name.as_str()).collect();
    names.sort_unstable();
    if let Some(pair) = names.windows(2).find(|w| w[0] == w[1]) {
        return Err(invalid(format!(
            "two engines are named '{}': give each a name=",
            pair[0]
        )));
    }
    Ok(config)
}

fn spec_for(cmd: PathBuf) -> EngineSpec {
    EngineSpec {
        name: None,
        process: ProcessSpec {
            cmd,
            args: Vec::new(),
            dir: None,
        },
        options: Vec::new(),
        limits: Limits::default(),
        dialect: None,
    }
}

fn engine(tokens: &[String], n: usize) -> Result<EngineChoice, CliError> {
    let tokens: Vec<&str> = tokens.iter().map(String::as_str).collect();
    let spec = EngineKeys::parse(&tokens)
        .and_then(|keys| keys.into_program_spec(n))
        .map_err(|e| invalid(format!("engine {n}: {e}")))?;
    let name = spec.name.clone().unwrap_or_else(|| {
        spec.process.cmd.file_name().map_or_else(
            || format!("engine {n}"),
            |f| f.to_string_lossy().into_owned(),
        )
    });
    Ok(EngineChoice { name, spec })
}

/// Whether `host` is a loopback address or name (only the local machine can connect).
#[must_use]
pub fn is_loopback(host: &str) -> bool {
    host == "localhost"
        || host
            .trim_start_matches('[')
            .trim_end_matches(']')
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::client::Dialect;

    fn args(line: &str) -> Vec<String> {
        line.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn engines_are_read_as_the_referee_writes_them() {
        let config = parse(
            &args("--port 0 -engine cmd=./k name=K option.Hash=64 tc=10+1 -engine cmd=/bin/x proto=uci"),
            Path::new("/b/konane"),
        )
        .unwrap();
        assert_eq!(config.port, 0);
        assert_eq!(config.host, "127.0.0.1");
        assert_eq!(config.engines[0].name, "K");
        assert_eq!(
            config.engines[0].spec.options,
            vec![("Hash".into(), "64".into())]
        );
        assert_eq!(config.engines[1].name, "x");
        assert_eq!(config.engines[1].spec.dialect, Some(Dialect::Uci));
    }

    #[test]
    fn the_bundled_engine_is_used_when_none_is_given() {
        let config = parse(&[], Path::new("/b/konane")).unwrap();
        assert_eq!(
            config.engines[0].spec.process.cmd,
            PathBuf::from("/b/konane")
        );
    }

    #[test]
    fn bad_command_lines_say_what_is_wrong() {
        let bundled = Path::new("/b/konane");
        for (line, says) in [
            ("--port x", "not a port"),
            ("--port", "needs a value"),
            ("-engine name=a", "no cmd="),
            ("-engine cmd=a foo=1", "option foo: unknown engine key"),
            ("-engine cmd=a proto=x", "proto is ugi or uci"),
            ("-engine cmd=a tc=fast", "option tc:"),
            ("-engine cmd=a -engine cmd=b/a", "two engines are named 'a'"),
            ("--frobnicate", "unknown argument"),
        ] {
            let err = parse(&args(line), bundled).unwrap_err().to_string();
            assert!(err.contains(says), "{line}: {err}");
        }
    }

    #[test]
    fn loopback_hosts_are_recognised() {
        assert!(is_loopback("127.0.0.1") && is_loopback("::1") && is_loopback("localhost"));
        assert!(!is_loopback("0.0.0.0") && !is_loopback("192.168.1.2"));
    }
}
