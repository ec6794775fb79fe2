/**
 * Event keys, names and parameters repeat endlessly (`type`, `delta`,
 * `promptTokens`): a judgement of a name is cached, for names up to 256
 * characters, up to 4096 of them.
 */
export function cachedByName<T>(judge: (name: string) => T): (name: string) => T {
  const answers = new Map<string, T>();
  return (name) => {
    let answer = answers.get(name);
    if (answer === undefined) {
      answer = judge(name);
      if (answers.size >= 4096) answers.clear();
      if (name.length <= 256) answers.set(name, answer);
    }
    return answer;
  };
}
