// The one browser file of age for the sealed "Send orders" form (assets/campaign/vendor/form/age.js),
// bundled by tools/form/vendor with esbuild as the global `campaignAge`.
//
// age-encryption is the age authors' TypeScript implementation; it seals to age1… (X25519) recipients. A
// faction may also list the SSH key its player uses on GitHub (ssh-ed25519, ssh-rsa), which
// age-encryption does not take: the form seals to those itself (orders-form.js, sshRecipient), with the
// primitives exported here, which are the very ones age-encryption is built on (its own dependencies,
// at the versions tools/form/package-lock.json pins).
export { Encrypter, Stanza, armor } from "age-encryption";
export { ed25519, x25519 } from "@noble/curves/ed25519.js";
export { hkdf } from "@noble/hashes/hkdf.js";
export { sha256 } from "@noble/hashes/sha2.js";
export { chacha20poly1305 } from "@noble/ciphers/chacha.js";
export { base64, base64nopad } from "@scure/base";
