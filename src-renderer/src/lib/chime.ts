/** A short two-note tone made with WebAudio (no sound file to ship); silent where audio is unavailable. */
export function playChime() {
  const AudioContextType = window.AudioContext
  if (!AudioContextType) return
  const audio = new AudioContextType()
  const start = audio.currentTime
  const gain = audio.createGain()
  gain.connect(audio.destination)
  gain.gain.setValueAtTime(0.0001, start)
  gain.gain.exponentialRampToValueAtTime(0.2, start + 0.02)
  gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.45)
  const tone = audio.createOscillator()
  tone.type = 'sine'
  tone.frequency.setValueAtTime(880, start)
  tone.frequency.setValueAtTime(660, start + 0.18)
  tone.connect(gain)
  tone.start(start)
  tone.stop(start + 0.5)
  tone.onended = () => void audio.close()
}
