/**
 * Event keys, names and parameters repeat endlessly (`type`, `delta`,
 * `promptTokens`): a judgement of a name is cached, for names up to 256
 * characters, up to 4096 of them. The last name asked is remembered on its
 * own: a stream of text events asks about `delta` again and again, and
 * comparing two keys is cheaper than hashing one.
 */
export function cachedByName<T>(judge: (name: string) => T): (name: string) => T {
  const answers = new Map<string, T>();
  let lastName: string | undefined;
  let lastAnswer: T | undefined;
  return (name) => {
    if (name === lastName) return lastAnswer as T;
    let answer = answers.get(name);
    if (answer === undefined) {
      answer = judge(name);
      if (answers.size >= 4096) answers.clear();
      if (name.length <= 256) answers.set(name, answer);
    }
    lastName = name;
    lastAnswer = answer;
    return answer;
  };
}
