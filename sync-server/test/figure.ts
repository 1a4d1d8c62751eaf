/**
 * Prints a measured figure beside its target. Tests assert behaviour, never
 * speed (a loaded CI machine would make them flaky); the figures they print
 * show how far from its target a run was.
 */
export function printFigure(name: string, value: number, unit: string, target: string): void {
  console.log(`${name}: ${Math.round(value)} ${unit} (target ${target})`)
}
