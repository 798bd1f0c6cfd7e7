//! A PNG of the page after each step, numbered in order: the CI artifact a person looks at.
//! They go to `$SCREENSHOT_DIR`, else `target/screenshots/` under the workspace root.

use crate::webdriver::Browser;
use std::path::PathBuf;

pub struct Shots {
    dir: PathBuf,
    taken: usize,
}

impl Shots {
    /// The directory, made if missing, without the numbered shots of an earlier run.
    pub fn new() -> Shots {
        let dir = std::env::var_os("SCREENSHOT_DIR")
            .map(PathBuf::from)
            .unwrap_or_else(|| {
                PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/screenshots")
            });
        std::fs::create_dir_all(&dir).unwrap_or_else(|error| panic!("{}: {error}", dir.display()));
        // Only files named like ours: the directory may be shared.
        for entry in std::fs::read_dir(&dir).unwrap().flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if is_numbered_shot(&name) {
                let _ = std::fs::remove_file(entry.path());
            }
        }
        Shots { dir, taken: 0 }
    }

    /// Waits until `script` returns true (`what` names it in the timeout), then saves the
    /// step's shot: most steps end on something the page shows once it is done.
    pub async fn take_when(
        &mut self,
        browser: &Browser,
        what: &str,
        script: &str,
        step: &str,
    ) -> Result<PathBuf, String> {
        browser.wait_for(what, script).await?;
        self.take(browser, step).await
    }

    /// Saves `NN-<step>.png`; a screenshot that is not a PNG fails the step.
    pub async fn take(&mut self, browser: &Browser, step: &str) -> Result<PathBuf, String> {
        self.taken += 1;
        let path = self.dir.join(format!("{:02}-{step}.png", self.taken));
        let png = browser.screenshot().await?;
        if !png.starts_with(b"\x89PNG\r\n\x1a\n") {
            return Err(format!("the screenshot of {step} is not a PNG"));
        }
        std::fs::write(&path, png).map_err(|error| format!("{}: {error}", path.display()))?;
        Ok(path)
    }
}

fn is_numbered_shot(name: &str) -> bool {
    let bytes = name.as_bytes();
    name.ends_with(".png")
        && bytes.len() > 3
        && bytes[..2].iter().all(u8::is_ascii_digit)
        && bytes[2] == b'-'
}

#[test]
fn only_numbered_pngs_count_as_earlier_shots() {
    assert!(is_numbered_shot("07-signed-in.png"));
    assert!(!is_numbered_shot("logo.png"));
    assert!(!is_numbered_shot("07-signed-in.txt"));
    assert!(!is_numbered_shot("7-x.png"));
}
