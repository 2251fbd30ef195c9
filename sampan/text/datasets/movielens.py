"""MovieLens 1M ratings with user and movie features, from ml-1m.zip."""
import re
import zipfile

import numpy as np

from ...io import Dataset
from ._common import check_mode, locate

__all__ = ["Movielens", "MovieInfo", "UserInfo"]

URL = "https://dataset.bj.bcebos.com/movielens%2Fml-1m.zip"
AGE_TABLE = [1, 18, 25, 35, 45, 50, 56]
_TITLE_YEAR = re.compile(r"^(.*)\((\d+)\)$")


class MovieInfo:
    """A movie's id, categories and title (without its year)."""

    def __init__(self, index, categories, title):
        self.index, self.categories, self.title = int(index), categories, title

    def value(self, categories_dict, movie_title_dict):
        """[[id], [category ids], [title word ids]]."""
        return [[self.index], [categories_dict[c] for c in self.categories],
                [movie_title_dict[w.lower()] for w in self.title.split()]]

    def __repr__(self):
        return f"<MovieInfo id({self.index}), title({self.title}), categories({self.categories})>"


class UserInfo:
    """A user's id, gender, age bracket (index into AGE_TABLE) and job id."""

    def __init__(self, index, gender, age, job_id):
        self.index, self.is_male = int(index), gender == "M"
        self.age, self.job_id = AGE_TABLE.index(int(age)), int(job_id)

    def value(self):
        """[[id], [0 male / 1 female], [age bracket], [job id]]."""
        return [[self.index], [0 if self.is_male else 1], [self.age], [self.job_id]]

    def __repr__(self):
        gender = "M" if self.is_male else "F"
        return (f"<UserInfo id({self.index}), gender({gender}), age({AGE_TABLE[self.age]}), "
                f"job({self.job_id})>")


def _rows(package, name):
    """The '::'-separated fields of each line of ml-1m/<name> (latin-1 text)."""
    with package.open(f"ml-1m/{name}") as f:
        return [line.decode("latin-1").strip().split("::") for line in f]


class Movielens(Dataset):
    """One item per rating: user id, gender, age bracket, job, movie id, category ids,
    title word ids, and the rating mapped to [-3, 5] (2 * stars - 5). Ratings go to "test"
    with probability `test_ratio`, drawn from NumPy's global generator seeded with
    `rand_seed` (as Paddle). Category and title-word ids follow sorted order.

    Example:
        >>> data = Movielens(data_file="ml-1m.zip", mode="test", test_ratio=0.1)
    """

    def __init__(self, data_file=None, mode="train", test_ratio=0.1, rand_seed=0,
                 download=True):
        self.mode = check_mode("Movielens", mode, ("train", "test"))
        self.data_file = locate("Movielens", data_file, URL, "sentiment", download, "data_file")
        self.test_ratio, self.rand_seed = test_ratio, rand_seed
        np.random.seed(rand_seed)
        with zipfile.ZipFile(self.data_file) as package:
            self._load_meta_info(package)
            self._load_data(package)

    def _load_meta_info(self, package):
        self.movie_info, self.user_info = {}, {}
        titles, categories = set(), set()
        for movie_id, title, kinds in _rows(package, "movies.dat"):
            match = _TITLE_YEAR.match(title)
            if match is None:
                raise ValueError(f"Movielens: movie {movie_id} has no '(year)' in its title "
                                 f"{title!r}")
            kinds = kinds.split("|")
            self.movie_info[int(movie_id)] = MovieInfo(movie_id, kinds, match.group(1))
            titles.update(w.lower() for w in match.group(1).split())
            categories.update(kinds)
        self.movie_title_dict = {w: i for i, w in enumerate(sorted(titles))}
        self.categories_dict = {c: i for i, c in enumerate(sorted(categories))}
        for uid, gender, age, job, _ in _rows(package, "users.dat"):
            self.user_info[int(uid)] = UserInfo(uid, gender, age, job)

    def _load_data(self, package):
        is_test = self.mode == "test"
        self.data = []
        for uid, movie_id, rating, _ in _rows(package, "ratings.dat"):
            if (np.random.random() < self.test_ratio) != is_test:
                continue
            movie = self.movie_info[int(movie_id)]
            self.data.append(self.user_info[int(uid)].value()
                             + movie.value(self.categories_dict, self.movie_title_dict)
                             + [[float(rating) * 2 - 5.0]])

    def __getitem__(self, idx):
        return tuple(np.array(d) for d in self.data[idx])

    def __len__(self):
        return len(self.data)
